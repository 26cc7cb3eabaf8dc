// A run described as plain data: what was replayed, on what cluster, under which policies, with
// which seed. Stored beside the results, so any run can be explained and repeated.

import { createHash } from 'node:crypto';
import type { Cluster } from './cluster.js';
import type { ContentionSettings } from './contention.js';
import type { NodeTimeline } from './node-timeline.js';

/**
 * How a SWIM trace's bytes meet the cluster it is replayed on: `scaled` by target / source nodes
 * as SWIM does (a day of a smaller cluster on a smaller one), or kept as `recorded` (the same day
 * on other hardware).
 */
export type SwimBytes = 'scaled' | 'recorded';
export const SWIM_BYTES: readonly SwimBytes[] = ['scaled', 'recorded'];

/**
 * A stored trace as a run description names it: its format (`kind`, as `traces.format`), its name
 * and content hash, and whatever else its format needs to repeat the run, as plain JSON values
 * (each format's `workloadFor` says which: ingest/swim/format.ts, ingest/rmlog/format.ts).
 */
export interface StoredTraceRef {
  readonly kind: string;
  readonly trace: string;
  readonly sha256: string;
  readonly [field: string]: string | number | boolean | undefined;
}

export interface ScenarioRef {
  readonly kind: 'scenario';
  readonly scenario: string;
  readonly parameters: Readonly<Record<string, number | string>>;
}

export type TraceRef = ScenarioRef | StoredTraceRef;

/** A stored trace's reference, not a scenario's (a stored trace's `kind` is any format's name). */
export function isStoredTrace(ref: TraceRef): ref is StoredTraceRef {
  return ref.kind !== 'scenario';
}

export interface RunSpec {
  readonly trace: TraceRef;
  /** How the trace is labelled in reports (a scenario's label names parameters that differ from its defaults). */
  readonly traceLabel: string;
  /** The cluster as replayed: scheduler type and queue policies already set by `scheduler`. */
  readonly cluster: Cluster;
  /**
   * When nodes join and leave, as an RM log recorded them; absent when every node of `cluster`
   * serves for the whole run (a cluster file, a SWIM trace, a scenario, a log whose nodes never
   * changed while its apps ran), so those descriptions, and their hashes, are as they were.
   */
  readonly nodeTimeline?: NodeTimeline;
  /**
   * Each node's first heartbeat (ms into the run, below the interval; null: drawn from the seed), in
   * node order, as an RM log recorded them; absent where the seed draws every phase (a cluster file,
   * a SWIM trace, a scenario), so those descriptions, and their hashes, are as they were.
   */
  readonly heartbeatPhasesMs?: readonly (number | null)[];
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
  /**
   * Tasks share their nodes' cores, AMs using this much CPU (docs/model.md, "Contention");
   * absent when not modelled, so descriptions of runs without it, and their hashes, are as they were.
   */
  readonly contention?: ContentionSettings;
}

/**
 * JSON with object keys sorted, so equal specs serialize to equal bytes: what JSON.stringify
 * writes for plain data, each object's keys in canonicalKeyOrder. `cache` keeps the text of
 * objects already written (a sweep's runs share their cluster object, by far the largest part of
 * a spec, so it is written once); it must only hold objects that do not change.
 */
export function canonicalJson(value: unknown, cache?: WeakMap<object, string>): string {
  return writeCanonical(value, cache) ?? 'undefined';
}

/** The text of a value, or undefined where JSON.stringify leaves a value out. */
function writeCanonical(value: unknown, cache: WeakMap<object, string> | undefined): string | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const cached = cache?.get(value);
  if (cached !== undefined) return cached;
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return writeCanonical(withToJson.toJSON(), cache);
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item: unknown) => writeCanonical(item, cache) ?? 'null').join(',')}]`;
  } else {
    const record = value as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of canonicalKeyOrder(Object.keys(record))) {
      const item = writeCanonical(record[key], cache);
      if (item !== undefined) parts.push(`${JSON.stringify(key)}:${item}`);
    }
    text = `{${parts.join(',')}}`;
  }
  cache?.set(value, text);
  return text;
}

/**
 * The key order of the object the sorted entries make (the definition hashes were first written
 * with): keys sorted, then, as JavaScript orders an object's own keys, array-index keys ("9",
 * "10") first in numeric order.
 */
function canonicalKeyOrder(keys: string[]): string[] {
  const sorted = keys.sort();
  if (!sorted.some(isArrayIndex)) return sorted;
  const indices = sorted.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...sorted.filter((key) => !isArrayIndex(key))];
}

function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
}

/** Identity of a run description: runs with equal hashes must produce equal results. */
export function runSpecSha256(spec: RunSpec, cache?: WeakMap<object, string>): string {
  return sha256Hex(canonicalJson(spec, cache));
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
