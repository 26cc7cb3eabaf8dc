// What a run's nodes advertise (the context-aware capacity what-if of Cassales, 2016): the mode,
// written as `NAME[:key=value,...]` on the command line (`--capacity`) and in a cluster file
// (`capacityMode`), parsed here at the edge into a typed value. A new mode is one entry in KINDS;
// the usage text and the "valid modes" error follow from that list.

import { UserError } from './errors.js';

/** Cassales' shares of the cluster's total resources: minimum and maximum allocation. */
export interface ContextAwareShares {
  readonly minShare: number;
  readonly maxShare: number;
}

/**
 * - `configured`: each node advertises what its NodeManager is configured with
 *   (yarn.nodemanager.resource.memory-mb / cpu-vcores): the cluster as described;
 * - `hardware`: each node advertises its machine's hardware, allocation limits as configured;
 * - `context-aware`: hardware, and allocation limits that are shares of the cluster's total.
 */
export type CapacityMode =
  | { readonly kind: 'configured' }
  | { readonly kind: 'hardware' }
  | ({ readonly kind: 'context-aware' } & ContextAwareShares);

export const CONFIGURED_CAPACITY: CapacityMode = { kind: 'configured' };

/** Cassales' choice: a container of 2.5 % to 12.5 % of the cluster. */
export const DEFAULT_CONTEXT_AWARE_SHARES: ContextAwareShares = { minShare: 0.025, maxShare: 0.125 };

/** A user error in a capacity mode spec, or a mode the cluster cannot run; the message says what is valid. */
export class CapacityModeError extends UserError {
  override readonly name: string = 'CapacityModeError';
}

interface ModeKind {
  readonly name: CapacityMode['kind'];
  readonly usage: string;
  readonly summary: string;
  /** The `key=value` parameters the mode takes. */
  readonly keys: readonly string[];
  create(values: ReadonlyMap<string, number>): CapacityMode;
}

const KINDS: readonly ModeKind[] = [
  {
    name: 'configured',
    usage: 'configured',
    summary: 'nodes advertise what their NodeManagers are configured with (default)',
    keys: [],
    create: () => CONFIGURED_CAPACITY,
  },
  {
    name: 'hardware',
    usage: 'hardware',
    summary: "nodes advertise their machines' hardware (node groups' `hardware`); allocation limits as configured",
    keys: [],
    create: () => ({ kind: 'hardware' }),
  },
  {
    name: 'context-aware',
    usage: `context-aware[:min=${DEFAULT_CONTEXT_AWARE_SHARES.minShare},max=${DEFAULT_CONTEXT_AWARE_SHARES.maxShare}]`,
    summary: "hardware, and minimum / maximum allocation = min / max x the cluster's total (0 < min <= max <= 1)",
    keys: ['min', 'max'],
    create: (values) => {
      const shares: ContextAwareShares = {
        minShare: values.get('min') ?? DEFAULT_CONTEXT_AWARE_SHARES.minShare,
        maxShare: values.get('max') ?? DEFAULT_CONTEXT_AWARE_SHARES.maxShare,
      };
      const problem = sharesProblem(shares);
      if (problem !== null) throw new CapacityModeError(`context-aware: ${problem}`);
      return { kind: 'context-aware', ...shares };
    },
  },
];

export function capacityModeUsage(): string {
  return KINDS.map((kind) => `  ${kind.usage.padEnd(36)} ${kind.summary}`).join('\n');
}

/** `hardware`, `context-aware:min=0.05,max=0.2`, ... into a mode; a bad spec is a one-line error. */
export function parseCapacityMode(spec: string): CapacityMode {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(':');
  const name = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const kind = KINDS.find((k) => k.name === name);
  if (!kind) {
    throw new CapacityModeError(`unknown capacity mode '${name}'; valid modes are ${KINDS.map((k) => k.usage).join(', ')}`);
  }
  const values = new Map<string, number>();
  const parameters = colon < 0 ? [] : trimmed.slice(colon + 1).split(',');
  for (const parameter of parameters) {
    const eq = parameter.indexOf('=');
    const key = (eq < 0 ? parameter : parameter.slice(0, eq)).trim();
    const text = eq < 0 ? '' : parameter.slice(eq + 1).trim();
    if (!kind.keys.includes(key)) {
      throw new CapacityModeError(
        kind.keys.length === 0
          ? `capacity mode ${kind.name} takes no parameters`
          : `capacity mode ${kind.name} has no key '${key}'; valid keys are ${kind.keys.join(', ')}`,
      );
    }
    const value = Number(text);
    if (text === '' || !Number.isFinite(value)) {
      throw new CapacityModeError(`${kind.name}: ${key} must be a number, as in ${key}=0.1`);
    }
    if (values.has(key)) throw new CapacityModeError(`${kind.name}: ${key} is given twice`);
    values.set(key, value);
  }
  return kind.create(values);
}

/** The mode as a spec `parseCapacityMode` reads back, parameters left out where they are the defaults. */
export function capacityModeSpec(mode: CapacityMode): string {
  if (mode.kind !== 'context-aware') return mode.kind;
  const given = [
    mode.minShare === DEFAULT_CONTEXT_AWARE_SHARES.minShare ? null : `min=${mode.minShare}`,
    mode.maxShare === DEFAULT_CONTEXT_AWARE_SHARES.maxShare ? null : `max=${mode.maxShare}`,
  ].filter((p): p is string => p !== null);
  return given.length === 0 ? mode.kind : `${mode.kind}:${given.join(',')}`;
}

function sharesProblem({ minShare, maxShare }: ContextAwareShares): string | null {
  if (!(minShare > 0)) return `min must be above 0, got ${minShare}`;
  if (!(maxShare <= 1)) return `max must be at most 1, got ${maxShare}`;
  if (minShare > maxShare) return `min ${minShare} is above max ${maxShare}`;
  return null;
}
