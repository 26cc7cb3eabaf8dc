// Option value parsers shared by commands; a bad value is reported by commander as a usage error.

import { InvalidArgumentError } from 'commander';

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('expected a non-negative whole number');
  }
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** `--set name=value`, repeatable, into a record of numbers. */
export function collectSetting(value: string, previous: Record<string, number>): Record<string, number> {
  const eq = value.indexOf('=');
  const name = eq < 0 ? '' : value.slice(0, eq).trim();
  const number = eq < 0 ? NaN : Number(value.slice(eq + 1));
  if (name === '' || value.slice(eq + 1).trim() === '' || !Number.isFinite(number)) {
    throw new InvalidArgumentError(`expected name=number, got '${value}'`);
  }
  return { ...previous, [name]: number };
}

export function collectRunId(value: string, previous: number[]): number[] {
  return [...previous, wholeNumber(value)];
}
