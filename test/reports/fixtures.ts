// Hand-made runs for the report queries' tests: each test lists the apps and samples that matter
// to its query and saves them through saveRun, so fixtures land in the database exactly as real
// runs do. Everything a test does not name is zero, empty or a fixed default.

import type {
  AppEndState,
  AppOutcome,
  FailureCause,
  FinalStatus,
  ReplayResult,
  ReplaySummary,
  SampleColumns,
} from '../../src/model/replay-result.js';
import { FAILURE_CAUSES } from '../../src/model/replay-result.js';
import type { Cluster } from '../../src/model/cluster.js';
import type { RunSpec, TraceRef } from '../../src/model/run-spec.js';
import type { AppType } from '../../src/model/workload.js';
import { saveRun } from '../../src/store/index.js';
import type { QueryRows, Store } from '../../src/store/index.js';
import { oneNodeCluster } from '../helpers/workloads.js';

export interface AppFixture {
  readonly state: AppEndState;
  readonly type?: AppType;
  readonly submitMs?: number;
  readonly finishMs?: number | null;
  readonly failureCause?: FailureCause | null;
  /** Default: SUCCEEDED if FINISHED, FAILED if FAILED or REJECTED, KILLED if KILLED, else UNDEFINED. */
  readonly finalStatus?: FinalStatus;
}

/** One sample: the columns a test sets; `nodes` counts nodes by memory utilisation range. */
export type SampleFixture = Partial<Record<Exclude<keyof SampleColumns, NodeRangeColumn>, number>> & {
  readonly nodes?: Partial<Record<NodeRangeColumn, number>>;
};

type NodeRangeColumn = 'nodesUnused' | 'nodes1To19' | 'nodes20To39' | 'nodes40To59' | 'nodes60To79' | 'nodes80To99' | 'nodesFull';
const NODE_RANGES: readonly NodeRangeColumn[] = ['nodesUnused', 'nodes1To19', 'nodes20To39', 'nodes40To59', 'nodes60To79', 'nodes80To99', 'nodesFull'];

export interface QueueSampleFixture {
  readonly timeMs: number;
  readonly queue: string;
  readonly usedMemoryMb?: number;
  readonly shareMemoryMb?: number;
  readonly runningApps?: number;
  readonly pendingApps?: number;
}

export interface RunFixture {
  readonly trace?: string;
  readonly scheduler?: string;
  readonly queueStructure?: string;
  readonly policy?: string;
  readonly seed: number;
  readonly apps?: readonly AppFixture[];
  /** Sample i is taken at i x 10 s. */
  readonly samples?: readonly SampleFixture[];
  /** Rows of run_queue_samples; what a row does not name is 0. */
  readonly queueSamples?: readonly QueueSampleFixture[];
  /** Default: one node of 8192 MB and 8 vcores. */
  readonly cluster?: Cluster;
  /** Default: a scenario named `trace`. */
  readonly traceRef?: TraceRef;
  readonly summary?: Partial<ReplaySummary>;
}

export function fixtureSpec(fixture: RunFixture): RunSpec {
  return {
    trace: fixture.traceRef ?? { kind: 'scenario', scenario: fixture.trace ?? 't', parameters: {} },
    traceLabel: fixture.trace ?? 't',
    cluster: fixture.cluster ?? oneNodeCluster(8192, 8),
    scheduler: fixture.scheduler ?? 'capacity-fifo',
    queueStructure: fixture.queueStructure ?? 'one',
    admission: { spec: fixture.policy ?? 'none', parameters: {} },
    seed: fixture.seed,
    appTimeoutMs: null,
    sampleIntervalMs: 10_000,
    horizonMs: null,
    recordContainers: false,
  };
}

export function fixtureResult(fixture: RunFixture): ReplayResult {
  const apps: AppOutcome[] = (fixture.apps ?? []).map((app, index) => {
    const submitMs = app.submitMs ?? 0;
    const ended = app.state === 'FINISHED' || app.state === 'FAILED' || app.state === 'KILLED' || app.state === 'REJECTED';
    return {
      index,
      id: `app_${index}`,
      name: `app ${index}`,
      type: app.type ?? 'mapreduce',
      applicationType: app.type === 'streaming' ? 'SPARK' : 'MAPREDUCE',
      queue: 'root.default',
      user: 'u',
      submitMs,
      admittedMs: submitMs,
      amStartMs: app.state === 'REJECTED' || app.state === 'ACCEPTED' ? null : submitMs,
      finishMs: app.finishMs ?? (ended ? submitMs : null),
      state: app.state,
      finalStatus: app.finalStatus ?? defaultFinalStatus(app.state),
      reason: app.failureCause ?? null,
      failureCause: app.failureCause ?? null,
      tasks: 1,
      containers: app.state === 'FINISHED' ? 1 : 0,
      placementFailures: 0,
      reducesPreempted: 0,
      attempts: app.state === 'REJECTED' ? 0 : 1,
    };
  });
  const count = (keep: (app: AppOutcome) => boolean): number => apps.filter(keep).length;
  const failuresByCause = Object.fromEntries(
    FAILURE_CAUSES.map((cause) => [cause, count((app) => app.failureCause === cause)]),
  ) as Record<FailureCause, number>;
  const unfinished = count((app) => app.type !== 'streaming' && (app.state === 'ACCEPTED' || app.state === 'RUNNING'));
  const summary: ReplaySummary = {
    appsTotal: apps.length,
    appsFinished: count((app) => app.state === 'FINISHED' && app.finalStatus === 'SUCCEEDED'),
    appsFailed: count((app) => app.state !== 'REJECTED' && app.finalStatus === 'FAILED'),
    appsKilled: count((app) => app.finalStatus === 'KILLED'),
    appsRejected: count((app) => app.state === 'REJECTED'),
    appsUnfinished: unfinished,
    appsLongRunning: count((app) => app.type === 'streaming'),
    failuresByCause,
    makespanMs: null,
    firstSubmitMs: 0,
    lastEndMs: null,
    deadlock: false,
    deadlockAtMs: null,
    stallReason: null,
    stoppedAtHorizon: unfinished > 0,
    endMs: 1_000_000,
    events: 1,
    nodeHeartbeats: 0,
    containersAllocated: 0,
    tasksCompleted: 0,
    reservationsMade: 0,
    placementFailures: 0,
    reducesPreempted: 0,
    containersLost: 0,
    samplesTaken: fixture.samples?.length ?? 0,
    sampleIntervalMs: 10_000,
    ...fixture.summary,
  };
  const samples = fixture.samples ?? [];
  const column = (name: Exclude<keyof SampleColumns, NodeRangeColumn>): number[] =>
    samples.map((sample, i) => (name === 'timeMs' ? (sample.timeMs ?? i * 10_000) : (sample[name] ?? 0)));
  const nodes = (range: NodeRangeColumn): number[] => samples.map((sample) => sample.nodes?.[range] ?? 0);
  const [nodesUnused, nodes1To19, nodes20To39, nodes40To59, nodes60To79, nodes80To99, nodesFull] = NODE_RANGES.map(nodes) as [
    number[], number[], number[], number[], number[], number[], number[],
  ];
  return {
    summary,
    apps,
    samples: {
      timeMs: column('timeMs'),
      usedMemoryMb: column('usedMemoryMb'),
      usedVcores: column('usedVcores'),
      freeMemoryMb: column('freeMemoryMb'),
      freeVcores: column('freeVcores'),
      amMemoryMb: column('amMemoryMb'),
      amVcores: column('amVcores'),
      amShare: column('amShare'),
      runningApps: column('runningApps'),
      pendingApps: column('pendingApps'),
      waitingApps: column('waitingApps'),
      pendingContainers: column('pendingContainers'),
      reservedMemoryMb: column('reservedMemoryMb'),
      reservedVcores: column('reservedVcores'),
      strandedMemoryMb: column('strandedMemoryMb'),
      strandedVcores: column('strandedVcores'),
      fragmentedAsks: column('fragmentedAsks'),
      nodesUnused,
      nodes1To19,
      nodes20To39,
      nodes40To59,
      nodes60To79,
      nodes80To99,
      nodesFull,
    },
    queueSamples: queueColumns(fixture.queueSamples ?? []),
    nodes: {
      nodeIndex: [], nodeGroup: [], memoryMb: [], vcores: [], containersAllocated: [], usedMemoryMbMs: [],
      usedVcoresMs: [], strandedMemoryMbSampled: [], strandedVcoresSampled: [], reservations: [],
    },
    containers: null,
    controllerSteps: { timeMs: [], controller: [], measured: [], filtered: [], oldShare: [], newShare: [] },
  };
}

function queueColumns(rows: readonly QueueSampleFixture[]): ReplayResult['queueSamples'] {
  const zeros = rows.map(() => 0);
  return {
    timeMs: rows.map((row) => row.timeMs),
    queue: rows.map((row) => row.queue),
    usedMemoryMb: rows.map((row) => row.usedMemoryMb ?? 0),
    usedVcores: zeros,
    reservedMemoryMb: zeros,
    reservedVcores: zeros,
    shareMemoryMb: rows.map((row) => row.shareMemoryMb ?? 0),
    shareVcores: zeros,
    runningApps: rows.map((row) => row.runningApps ?? 0),
    pendingApps: rows.map((row) => row.pendingApps ?? 0),
    pendingContainers: zeros,
  };
}

const META = { startedAt: new Date('2026-01-01T00:00:00Z'), wallMs: 1, rmreplayVersion: 'test' };

/** Save a fixture run as a replay would; returns its run id. */
export function saveFixtureRun(store: Store, fixture: RunFixture): Promise<number> {
  return saveRun(store, fixtureSpec(fixture), fixtureResult(fixture), META);
}

/** Report rows as objects keyed by column name. */
export function objectsOf({ columns, rows }: QueryRows): Record<string, unknown>[] {
  return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
}

/** `n` apps in the same state, each taking `turnaroundMs` from submission to its end. */
export function apps(n: number, state: AppEndState, turnaroundMs = 0, more: Partial<AppFixture> = {}): AppFixture[] {
  const ended = state === 'FINISHED' || state === 'FAILED' || state === 'REJECTED';
  return Array.from({ length: n }, () => ({ state, submitMs: 0, finishMs: ended ? turnaroundMs : null, ...more }));
}

function defaultFinalStatus(state: AppEndState): FinalStatus {
  if (state === 'FINISHED') return 'SUCCEEDED';
  if (state === 'FAILED' || state === 'REJECTED') return 'FAILED';
  if (state === 'KILLED') return 'KILLED';
  return 'UNDEFINED';
}
