// What every trace format rmreplay reads provides: its ingest subcommand, how a file becomes a
// stored trace, and how a stored trace becomes the workload of a replay on a given cluster (and
// the cluster itself, for a format that records one). Each format implements it in its own folder
// (swim/format.ts, rmlog/format.ts); formats.ts lists them by the `format` a stored trace carries.

import type { Cluster } from '../model/cluster.js';
import type { TraceRef } from '../model/run-spec.js';
import type { NodeTimeline } from '../model/node-timeline.js';
import type { Workload } from '../model/workload.js';
import type { Store, TraceRecord } from '../store/index.js';
import type { IngestCommand } from './ingest-command.js';
import type { RecordedOutcomes } from './recorded-outcomes.js';

export interface TraceFormat<IngestOptions, IngestResult> {
  /** The `format` of the traces it stores (`traces.format`). */
  readonly name: string;
  /** The command that ingests a file of this format, for messages. */
  readonly ingestUsage: string;
  /** One trace of it, for messages: `an RM log`. */
  readonly oneTrace: string;
  /** Its traces, for messages: `SWIM traces`. */
  readonly traces: string;
  /** The flags of the replay settings it takes (`swim-bytes`); a trace refuses any other. */
  readonly settings: readonly string[];
  /**
   * The tables its traces' rows are stored in, as `CREATE TABLE IF NOT EXISTS` statements, made
   * before its first ingest (formats.ts ingestTrace); absent for the formats whose tables are in
   * store/migrations.ts (SWIM, RM logs), which have schema history. Every table carries `trace`.
   */
  readonly tables?: readonly string[];
  /** Its `rmreplay ingest <name>` subcommand (api/ingest-commands.ts, cli/commands/ingest.ts). */
  readonly command: IngestCommand<IngestOptions, IngestResult>;
  /** Read a file (or files) into the store as one trace. */
  ingest(store: Store, options: IngestOptions): Promise<IngestResult>;
  /** A stored trace, read once, ready to be replayed on any number of clusters. */
  load(store: Store, record: TraceRecord): Promise<LoadedTrace>;
}

/** Where the user's cluster comes from, as far as a format's notes depend on it. */
export interface ClusterRequest {
  readonly cluster?: string;
  readonly nodes?: number;
  readonly yarnSite?: string;
  /** A FairScheduler allocation file: the queues' weights and shares. */
  readonly fairScheduler?: string;
}

/**
 * How the user asked a trace to be turned into a workload: each setting by the flag that gives it
 * (`swim-bytes`: `recorded`), only those the trace's format takes (formats.ts refuses the rest).
 */
export type TraceSettings = Readonly<Record<string, string>>;

export interface LoadedTrace {
  /** The cluster the trace itself records (an RM log's nodes and scheduler), or null. */
  readonly recordedCluster: Cluster | null;
  /** What to tell the user when neither the trace nor the request gives a cluster. */
  readonly clusterMissing: string;
  /** What the trace could not say and how it was filled in. */
  readonly notes: readonly string[];
  /** The recorded nodes' joins and departures, if they changed while the trace ran; else null. */
  readonly nodeTimeline: NodeTimeline | null;
  /** When the recorded nodes heartbeat (an RM log's, heartbeat-phases.ts), in node order; else null. */
  readonly heartbeatPhasesMs: readonly (number | null)[] | null;
  /** Notes on the cluster the trace is replayed on, given where the user's cluster comes from. */
  clusterNotes(request: ClusterRequest): string[];
  /** What the trace recorded its scheduler doing, for a format that records outcomes (fidelity compares against it). */
  readonly recorded?: RecordedOutcomes;
  /** The workload to replay on `cluster` (final: Hadoop files and capacity mode applied), and the run description's trace. */
  workloadFor(cluster: Cluster, settings: TraceSettings): { readonly workload: Workload; readonly trace: TraceRef };
}
