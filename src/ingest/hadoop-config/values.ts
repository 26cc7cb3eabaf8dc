// Typed reading of Hadoop property values as Hadoop's own getters read them (getInt, getFloat,
// getBoolean, FairScheduler resource strings); a bad value is a user error naming the property.

import { HadoopConfigError } from './xml.js';

/** Where a value comes from, for error messages. */
export interface ValueSource {
  readonly file: string;
  readonly line: number | null;
  readonly property: string;
  readonly value: string;
  /** A `${var}` the file left undefined, if any. */
  readonly unresolved?: string | null;
}

export function invalidValue(source: ValueSource, problem: string): HadoopConfigError {
  const at = source.line === null ? source.file : `${source.file}:${source.line}`;
  const hint = source.unresolved ? ` (${source.unresolved} is not defined in this file)` : '';
  return new HadoopConfigError(`${at}: ${source.property} = ${JSON.stringify(source.value)} ${problem}${hint}`);
}

const DECIMAL_INTEGER = /^[+-]?\d+$/;
const HEX_INTEGER = /^([+-]?)0x([0-9a-f]+)$/i;
// Java's Float.parseFloat: optional exponent and an optional f/d suffix.
const JAVA_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?[fd]?$/i;

/** Hadoop's getInt/getLong: decimal, or hexadecimal with 0x. */
export function integerValue(source: ValueSource): number {
  const text = source.value.trim();
  let n: number;
  if (DECIMAL_INTEGER.test(text)) n = Number(text);
  else {
    const hex = HEX_INTEGER.exec(text);
    if (!hex) throw invalidValue(source, 'is not an integer');
    n = (hex[1] === '-' ? -1 : 1) * Number.parseInt(hex[2]!, 16);
  }
  if (!Number.isSafeInteger(n)) throw invalidValue(source, 'is out of range');
  return n;
}

/** Hadoop's getFloat/getDouble. */
export function numberValue(source: ValueSource): number {
  const text = source.value.trim();
  if (!JAVA_FLOAT.test(text)) throw invalidValue(source, 'is not a number');
  return Number(text.replace(/[fd]$/i, ''));
}

/**
 * Hadoop's getBoolean accepts `true`/`false` in any case and silently falls back to the
 * default otherwise; here anything else is an error, so a typo cannot pass unnoticed.
 */
export function booleanValue(source: ValueSource): boolean {
  const text = source.value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw invalidValue(source, 'is not true or false (Hadoop would silently use the default)');
}

/** Hadoop's getTrimmedStrings: comma-separated, each trimmed, empty items dropped. */
export function listValue(source: ValueSource): string[] {
  return source.value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * A FairScheduler resource string (minResources, maxResources, queueMaxResourcesDefault).
 * `absolute` holds null for a resource the new style `name=value` form leaves out;
 * `percent` is of the whole cluster, 0-100.
 */
export type FairResource =
  | {
      readonly kind: 'absolute';
      readonly memoryMb: number | null;
      readonly vcores: number | null;
      /** Resource types other than memory and vcores (GPUs...), by name. */
      readonly others: readonly string[];
    }
  | {
      readonly kind: 'percent';
      readonly memoryPercent: number;
      readonly vcoresPercent: number;
      readonly others: readonly string[];
    };

const PERCENT = /^(-?\d+(?:\.\d*)?)\s*%\s*$/;
const MEMORY_NAMES = new Set(['memory-mb', 'memory']);

/**
 * Parse a resource string in the forms Hadoop 3.x accepts (2.7 accepts the first):
 * "1024 mb, 2 vcores" (either order, space or comma separated), "memory-mb=1024, vcores=2",
 * "50%", "50% memory, 25% cpu", "memory-mb=50%, vcores=25%". Throws an Error saying what is
 * wrong; the caller adds where.
 */
export function parseFairResource(text: string): FairResource {
  const value = text.trim();
  if (value === '') throw new Error('is empty');
  if (value.includes('=')) return parseNewStyle(value);
  const lower = value.toLowerCase();
  if (lower.includes('%')) {
    const parts = lower.split(',');
    if (parts.length === 1) {
      const p = percentOf(parts[0]!.trim(), '');
      return { kind: 'percent', memoryPercent: p, vcoresPercent: p, others: [] };
    }
    return {
      kind: 'percent',
      memoryPercent: percentOf(partNaming(parts, 'memory'), 'memory'),
      vcoresPercent: percentOf(partNaming(parts, 'cpu'), 'cpu'),
      others: [],
    };
  }
  let parts = lower.split(',');
  if (parts.length !== 2) parts = lower.match(/-?\d+(?:\.\d*)?\s*[a-z]+\s*/g) ?? [];
  if (parts.length !== 2) throw new Error('is not of the form "1024 mb, 2 vcores"');
  return { kind: 'absolute', memoryMb: amountOf(parts, 'mb'), vcores: amountOf(parts, 'vcores'), others: [] };
}

function partNaming(parts: readonly string[], unit: string): string {
  const part = parts.find((p) => p.includes(unit));
  if (part === undefined) throw new Error(`names no ${unit}`);
  return part.trim();
}

function percentOf(part: string, unit: string): number {
  const match = new RegExp(`^(-?\\d+(?:\\.\\d*)?)\\s*%\\s*${unit}$`).exec(part);
  if (!match) throw new Error(`has an invalid percentage${unit ? ` of ${unit}` : ''}: "${part}"`);
  const percent = Number(match[1]);
  if (percent < 0) throw new Error('has a negative percentage');
  return percent;
}

function amountOf(parts: readonly string[], unit: string): number {
  const part = partNaming(parts, unit);
  // Hadoop reads the integer part of "1024.5 mb".
  const match = new RegExp(`^(-?\\d+)(?:\\.\\d*)?\\s*${unit}`).exec(part);
  if (!match) throw new Error(`has an invalid ${unit === 'mb' ? 'memory' : unit} value: "${part}"`);
  const amount = Number(match[1]);
  if (amount < 0) throw new Error(`has a negative ${unit === 'mb' ? 'memory' : unit} value`);
  return amount;
}

function parseNewStyle(value: string): FairResource {
  const asPercent = value.includes('%');
  let memory: number | null = null;
  let vcores: number | null = null;
  const others: string[] = [];
  for (const item of value.split(',')) {
    const pieces = item.split('=');
    if (pieces.length !== 2) throw new Error('has an item that is not of the form name=value');
    const name = pieces[0]!.trim();
    const amountText = pieces[1]!.trim();
    let amount: number;
    if (asPercent) {
      const match = PERCENT.exec(amountText);
      if (!match) throw new Error(`mixes percentages and absolute values ("${amountText}")`);
      amount = Number(match[1]);
    } else {
      if (!/^-?\d+$/.test(amountText)) throw new Error(`has a value that is not an integer ("${amountText}")`);
      amount = Number(amountText);
    }
    if (amount < 0) throw new Error(`has a negative value for ${name}`);
    if (MEMORY_NAMES.has(name)) memory = amount;
    else if (name === 'vcores') vcores = amount;
    else others.push(name);
  }
  if (asPercent) {
    // Hadoop reads a resource left out of a percentage list as 100%.
    return { kind: 'percent', memoryPercent: memory ?? 100, vcoresPercent: vcores ?? 100, others };
  }
  return { kind: 'absolute', memoryMb: memory, vcores, others };
}
