// A run described as plain data: what was replayed, on what cluster, under which policies, with
// which seed. Stored beside the results, so any run can be explained and repeated.

import { createHash } from 'node:crypto';
import type { Cluster } from './cluster.js';

export type TraceRef =
  | { readonly kind: 'swim'; readonly trace: string; readonly sha256: string; readonly sourceNodes: number }
  | { readonly kind: 'scenario'; readonly scenario: string; readonly parameters: Readonly<Record<string, number | string>> }
  /** originMs: the log time that is replay time 0. */
  | { readonly kind: 'rmlog'; readonly trace: string; readonly sha256: string; readonly originMs: number };

export interface RunSpec {
  readonly trace: TraceRef;
  /** How the trace is labelled in reports (a scenario's label names parameters that differ from its defaults). */
  readonly traceLabel: string;
  /** The cluster as replayed: scheduler type and queue policies already set by `scheduler`. */
  readonly cluster: Cluster;
  /** The scheduling-policy combination: capacity-fifo, fair-fifo, fair-fair, fair-drf (or fair-mixed). */
  readonly scheduler: string;
  /** How the queues were laid out, for reports: a scenario's structure name, else the leaf queues. */
  readonly queueStructure: string;
  readonly admission: { readonly spec: string; readonly parameters: Readonly<Record<string, number | string>> };
  readonly seed: number;
  /** An app that waits this long for a container it needs fails (null: apps wait for ever). */
  readonly appTimeoutMs: number | null;
  readonly sampleIntervalMs: number;
  readonly horizonMs: number | null;
  readonly recordContainers: boolean;
}

/** JSON with object keys sorted, so equal specs serialize to equal bytes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

/** Identity of a run description: runs with equal hashes must produce equal results. */
export function runSpecSha256(spec: RunSpec): string {
  return createHash('sha256').update(canonicalJson(spec)).digest('hex');
}
