// Observation of a replay: the periodic samples of the cluster and of each leaf queue (with the
// fragmentation figures), each node's usage over time and its utilisation bucket, and the
// optional log of every container. It reads the run's state and never changes it; apply.ts
// tells it when a node's usage is about to change and when it has changed.

import { shareOf } from '../model/resources.js';
import type {
  ContainerColumns,
  NodeColumns,
  QueueSampleColumns,
  SampleColumns,
} from '../model/replay-result.js';
import type { Scheduler } from '../policies/scheduling/index.js';
import { SampleTable } from './sample-table.js';
import type { ColumnLayout } from './sample-table.js';
import type { ClusterListener, NodeUsageListener } from './apply.js';
import type { ClusterState, Container, NodeState } from './state.js';

// Positions of the sample columns in a SampleTable row (the order the result lists them in).
const SAMPLE_LAYOUT = {
  timeMs: 0,
  usedMemoryMb: 1,
  usedVcores: 2,
  freeMemoryMb: 3,
  freeVcores: 4,
  amMemoryMb: 5,
  amVcores: 6,
  amShare: 7,
  runningApps: 8,
  pendingApps: 9,
  waitingApps: 10,
  pendingContainers: 11,
  reservedMemoryMb: 12,
  reservedVcores: 13,
  strandedMemoryMb: 14,
  strandedVcores: 15,
  fragmentedAsks: 16,
  nodesUnused: 17,
  nodes1To19: 18,
  nodes20To39: 19,
  nodes40To59: 20,
  nodes60To79: 21,
  nodes80To99: 22,
  nodesFull: 23,
} as const satisfies ColumnLayout<keyof SampleColumns>;

/** Queue samples; `leaf` is the queue's position in the scheduler's leafQueues (its path at the end). */
const QUEUE_SAMPLE_LAYOUT = {
  timeMs: 0,
  leaf: 1,
  usedMemoryMb: 2,
  usedVcores: 3,
  reservedMemoryMb: 4,
  reservedVcores: 5,
  shareMemoryMb: 6,
  shareVcores: 7,
  runningApps: 8,
  pendingApps: 9,
  pendingContainers: 10,
} as const satisfies ColumnLayout<Exclude<keyof QueueSampleColumns, 'queue'> | 'leaf'>;

/**
 * Most sample rows a run keeps, cluster rows and queue rows together: bounded whatever the
 * trace's length and the sample interval (200,000 rows are at most 40 MB of columns, and about
 * 3 s to store). A run about to keep more doubles its interval and keeps only the samples so far
 * that fall on the wider one, as often as needed, so its samples stay evenly spaced; the summary
 * gives the interval kept. A day of 10-s samples on 10 leaf queues is 95,051 rows.
 */
export const MAX_SAMPLE_ROWS = 200_000;

/** What a run whose samples were coarsened says about it, or null when they were not. */
export function coarsenedSamplesNote(requestedIntervalMs: number, keptIntervalMs: number): string | null {
  if (keptIntervalMs === requestedIntervalMs) return null;
  return (
    `samples kept every ${keptIntervalMs / 1000} s, not every ${requestedIntervalMs / 1000} s as asked: ` +
    `a run keeps at most ${MAX_SAMPLE_ROWS.toLocaleString('en-US')} sample rows (cluster and queues)`
  );
}

/** What observation adds to a replay's result. */
export interface ObservedColumns {
  readonly samples: SampleColumns;
  readonly queueSamples: QueueSampleColumns;
  readonly nodes: NodeColumns;
  readonly containers: ContainerColumns | null;
}

export class RunObserver implements ClusterListener, NodeUsageListener {
  private readonly nodes: readonly NodeState[];
  private nextSampleMs = 0;
  /** The interval of the periodic samples: the one asked for, doubled at each coarsening. */
  private intervalMs: number;
  private samplesTakenSoFar = 0;
  private readonly samples = new SampleTable(SAMPLE_LAYOUT);
  /** Time of the last sample row (a sample at the same instant is not taken twice). */
  private lastSampleMs = NaN;
  private readonly queueSamples = new SampleTable(QUEUE_SAMPLE_LAYOUT);
  /** Scratch for sampleFragmentation: the servable ask sizes of one sample. */
  private askMemoryMb = new Float64Array(8);
  private askVcores = new Float64Array(8);
  private askCounts = new Float64Array(8);
  private askFits = new Uint8Array(8);
  /**
   * Per node, stranded space summed over samples, and usage integrated over time (MB x ms,
   * vcores x ms) up to its last change. Kept here in arrays rather than on the node: an object
   * field first written long into a run (a node first found stranded) would throw away the
   * optimised code reading it (V8 compiles a field never written since construction as a
   * constant); array elements carry no such assumption.
   */
  private readonly strandedMemoryMbSampled: Float64Array;
  private readonly strandedVcoresSampled: Float64Array;
  private readonly usedMemoryMbMs: Float64Array;
  private readonly usedVcoresMs: Float64Array;
  private readonly lastChangeMs: Float64Array;
  /** Each node's memory utilisation bucket (see utilisationBucket), and nodes per bucket. */
  private readonly nodeBuckets: Uint8Array;
  private readonly bucketCounts = [0, 0, 0, 0, 0, 0, 0];
  private readonly containerLog: ContainerColumns | null;
  private readonly liveContainers: Set<Container> | null;

  constructor(
    private readonly cluster: ClusterState,
    private readonly scheduler: Scheduler,
    sampleIntervalMs: number,
    recordContainers: boolean,
  ) {
    this.intervalMs = sampleIntervalMs;
    const nodes = cluster.nodes;
    this.nodes = nodes;
    this.strandedMemoryMbSampled = new Float64Array(nodes.length);
    this.strandedVcoresSampled = new Float64Array(nodes.length);
    this.usedMemoryMbMs = new Float64Array(nodes.length);
    this.usedVcoresMs = new Float64Array(nodes.length);
    this.lastChangeMs = new Float64Array(nodes.length);
    this.nodeBuckets = new Uint8Array(nodes.length);
    this.bucketCounts[0] = nodes.length;
    this.containerLog = recordContainers
      ? { appIndex: [], nodeIndex: [], kind: [], stage: [], task: [], memoryMb: [], vcores: [], startMs: [], endMs: [] }
      : null;
    this.liveContainers = recordContainers ? new Set() : null;
  }

  get samplesTaken(): number {
    return this.samplesTakenSoFar;
  }

  /** The interval of the samples kept (more than the one asked for if they were coarsened). */
  get sampleIntervalMs(): number {
    return this.intervalMs;
  }

  /** The clock moves on to `toMs`: take the periodic samples due before it. */
  sampleUntil(toMs: number): void {
    while (this.nextSampleMs < toMs) {
      // Two samples at least, so that a coarsening always drops one.
      const rowsAfter = this.samples.rows + this.queueSamples.rows + 1 + this.scheduler.leafQueues.length;
      if (rowsAfter > MAX_SAMPLE_ROWS && this.samples.rows >= 2) {
        this.coarsen();
        continue;
      }
      this.recordSample(this.nextSampleMs);
      this.nextSampleMs += this.intervalMs;
    }
  }

  /**
   * Double the sample interval and keep the samples so far that fall on it. Periodic samples are
   * taken at whole multiples of the interval from 0, so those of the wider one are among them.
   */
  private coarsen(): void {
    const intervalMs = 2 * this.intervalMs;
    this.intervalMs = intervalMs;
    const onGrid = (timeMs: number): boolean => timeMs % intervalMs === 0;
    this.samples.retainWhere('timeMs', onGrid);
    this.queueSamples.retainWhere('timeMs', onGrid);
    if (!onGrid(this.lastSampleMs)) this.lastSampleMs = NaN;
    this.nextSampleMs = Math.ceil(this.nextSampleMs / intervalMs) * intervalMs;
  }

  /** A node's usage is about to change: integrate its usage up to now (MB x ms, vcores x ms). */
  usageChanging(node: NodeState, nowMs: number): void {
    const i = node.index;
    const elapsedMs = nowMs - this.lastChangeMs[i]!;
    if (elapsedMs > 0) {
      this.usedMemoryMbMs[i] = this.usedMemoryMbMs[i]! + elapsedMs * (node.capacityMemoryMb - node.freeMemoryMb);
      this.usedVcoresMs[i] = this.usedVcoresMs[i]! + elapsedMs * (node.capacityVcores - node.freeVcores);
      this.lastChangeMs[i] = nowMs;
    }
  }

  /**
   * A node's usage has changed: move it to its new utilisation bucket, of its configured size (a
   * node being decommissioned, whose capacity is what it holds, is as used as its machine is).
   */
  usageChanged(node: NodeState): void {
    const bucket = utilisationBucket(node.capacityMemoryMb - node.freeMemoryMb, node.configuredMemoryMb);
    const i = node.index;
    const previous = this.nodeBuckets[i]!;
    if (bucket === previous) return;
    this.bucketCounts[previous]!--;
    this.bucketCounts[bucket]!++;
    this.nodeBuckets[i] = bucket;
  }

  /**
   * A node leaves the cluster (docs/model.md 12), its containers already released: it counts in
   * no utilisation bucket, and its usage integral stops, until it joins again.
   */
  nodeLeaving(node: NodeState, nowMs: number): void {
    const i = node.index;
    this.usageChanging(node, nowMs);
    this.bucketCounts[this.nodeBuckets[i]!]!--;
    this.nodeBuckets[i] = OUT_OF_SERVICE;
  }

  /** A node joins, empty: it is unused from now on. */
  nodeJoined(node: NodeState, nowMs: number): void {
    const i = node.index;
    this.lastChangeMs[i] = nowMs;
    this.nodeBuckets[i] = 0;
    this.bucketCounts[0]!++;
  }

  containerTaken(container: Container): void {
    if (this.liveContainers) this.liveContainers.add(container);
  }

  /** Samples read the cluster's counters when they are taken: nothing to note now. */
  clusterChanged(): void {}

  containerReleased(container: Container): void {
    if (!this.liveContainers) return;
    this.liveContainers.delete(container);
    this.logContainer(container);
  }

  recordSample(timeMs: number): void {
    if (timeMs === this.lastSampleMs) return;
    this.lastSampleMs = timeMs;
    this.samplesTakenSoFar++;
    const v = this.cluster;
    const table = this.samples;
    const row = table.addRow();
    const c = table.cells;
    c[row + SAMPLE_LAYOUT.timeMs] = timeMs;
    c[row + SAMPLE_LAYOUT.usedMemoryMb] = v.usedMemoryMb;
    c[row + SAMPLE_LAYOUT.usedVcores] = v.usedVcores;
    c[row + SAMPLE_LAYOUT.freeMemoryMb] = v.capacity.memoryMb - v.usedMemoryMb - v.reservedMemoryMb;
    c[row + SAMPLE_LAYOUT.freeVcores] = v.capacity.vcores - v.usedVcores - v.reservedVcores;
    c[row + SAMPLE_LAYOUT.amMemoryMb] = v.amMemoryMb;
    c[row + SAMPLE_LAYOUT.amVcores] = v.amVcores;
    c[row + SAMPLE_LAYOUT.amShare] = shareOf(v.calculator, { memoryMb: v.amMemoryMb, vcores: v.amVcores }, v.capacity);
    c[row + SAMPLE_LAYOUT.runningApps] = v.runningApps;
    c[row + SAMPLE_LAYOUT.pendingApps] = v.pendingApps;
    c[row + SAMPLE_LAYOUT.waitingApps] = v.waitingApps;
    c[row + SAMPLE_LAYOUT.pendingContainers] = v.pendingContainers;
    c[row + SAMPLE_LAYOUT.reservedMemoryMb] = v.reservedMemoryMb;
    c[row + SAMPLE_LAYOUT.reservedVcores] = v.reservedVcores;
    this.sampleFragmentation(c, row);
    const buckets = this.bucketCounts;
    c[row + SAMPLE_LAYOUT.nodesUnused] = buckets[0]!;
    c[row + SAMPLE_LAYOUT.nodes1To19] = buckets[1]!;
    c[row + SAMPLE_LAYOUT.nodes20To39] = buckets[2]!;
    c[row + SAMPLE_LAYOUT.nodes40To59] = buckets[3]!;
    c[row + SAMPLE_LAYOUT.nodes60To79] = buckets[4]!;
    c[row + SAMPLE_LAYOUT.nodes80To99] = buckets[5]!;
    c[row + SAMPLE_LAYOUT.nodesFull] = buckets[6]!;
    const leaves = this.scheduler.leafQueues;
    const queueTable = this.queueSamples;
    for (let i = 0; i < leaves.length; i++) {
      const leaf = leaves[i]!;
      const q = queueTable.addRow();
      const qc = queueTable.cells;
      qc[q + QUEUE_SAMPLE_LAYOUT.timeMs] = timeMs;
      qc[q + QUEUE_SAMPLE_LAYOUT.leaf] = i;
      qc[q + QUEUE_SAMPLE_LAYOUT.usedMemoryMb] = leaf.usedMemoryMb;
      qc[q + QUEUE_SAMPLE_LAYOUT.usedVcores] = leaf.usedVcores;
      qc[q + QUEUE_SAMPLE_LAYOUT.reservedMemoryMb] = leaf.reservedMemoryMb;
      qc[q + QUEUE_SAMPLE_LAYOUT.reservedVcores] = leaf.reservedVcores;
      qc[q + QUEUE_SAMPLE_LAYOUT.shareMemoryMb] = leaf.sampledShareMemoryMb;
      qc[q + QUEUE_SAMPLE_LAYOUT.shareVcores] = leaf.sampledShareVcores;
      qc[q + QUEUE_SAMPLE_LAYOUT.runningApps] = leaf.runningApps;
      qc[q + QUEUE_SAMPLE_LAYOUT.pendingApps] = leaf.apps - leaf.runningApps;
      qc[q + QUEUE_SAMPLE_LAYOUT.pendingContainers] = leaf.pendingContainers;
    }
  }

  /**
   * Stranded capacity: free space on unreserved nodes where no ask waiting to be served fits
   * (zero when nothing waits: idle space is not stranded). Fragmented asks: waiting asks that
   * the cluster's total free space could hold but no single node can. Written into sample row
   * `row` of `cells`, whose free-space cells are already filled in.
   */
  private sampleFragmentation(cells: Float64Array, row: number): void {
    const servable = this.scheduler.servableAskSizes;
    const checksVcores = this.scheduler.checksVcores;
    if (servable.length > this.askCounts.length) {
      const capacity = 2 * servable.length;
      this.askMemoryMb = new Float64Array(capacity);
      this.askVcores = new Float64Array(capacity);
      this.askCounts = new Float64Array(capacity);
      this.askFits = new Uint8Array(capacity);
    }
    const askMemoryMb = this.askMemoryMb;
    const askVcores = this.askVcores;
    const askCounts = this.askCounts;
    const fitsSomewhere = this.askFits;
    let sizes = 0;
    for (let i = 0; i < servable.length; i++) {
      const count = servable.countAt(i);
      if (count <= 0) continue;
      askMemoryMb[sizes] = servable.memoryMbAt(i);
      askVcores[sizes] = checksVcores ? servable.vcoresAt(i) : -Infinity;
      askCounts[sizes] = count;
      fitsSomewhere[sizes] = 0;
      sizes++;
    }
    let strandedMemoryMb = 0;
    let strandedVcores = 0;
    const nodes = this.nodes;
    const strandedMemoryMbSampled = this.strandedMemoryMbSampled;
    const strandedVcoresSampled = this.strandedVcoresSampled;
    for (let n = 0; sizes > 0 && n < nodes.length; n++) {
      const node = nodes[n]!;
      if (node.reservedApp >= 0) continue;
      let fits = false;
      for (let i = 0; i < sizes; i++) {
        if (askMemoryMb[i]! <= node.freeMemoryMb && askVcores[i]! <= node.freeVcores) {
          fits = true;
          fitsSomewhere[i] = 1;
        }
      }
      if (fits) continue;
      strandedMemoryMb += node.freeMemoryMb;
      strandedVcores += node.freeVcores;
      strandedMemoryMbSampled[n] = strandedMemoryMbSampled[n]! + node.freeMemoryMb;
      strandedVcoresSampled[n] = strandedVcoresSampled[n]! + node.freeVcores;
    }
    cells[row + SAMPLE_LAYOUT.strandedMemoryMb] = strandedMemoryMb;
    cells[row + SAMPLE_LAYOUT.strandedVcores] = strandedVcores;
    let fragmented = 0;
    // The cluster's free space, as this row already records it.
    const freeMemoryMb = cells[row + SAMPLE_LAYOUT.freeMemoryMb]!;
    const freeVcores = cells[row + SAMPLE_LAYOUT.freeVcores]!;
    for (let i = 0; i < sizes; i++) {
      if (askMemoryMb[i]! > freeMemoryMb || askVcores[i]! > freeVcores) continue;
      if (fitsSomewhere[i] === 0) fragmented += askCounts[i]!;
    }
    cells[row + SAMPLE_LAYOUT.fragmentedAsks] = fragmented;
  }

  private logContainer(container: Container): void {
    const log = this.containerLog!;
    log.appIndex.push(container.app.index);
    log.nodeIndex.push(container.node.index);
    log.kind.push(container.stage ? container.stage.spec.name : 'am');
    log.stage.push(container.stage ? container.stage.index : -1);
    log.task.push(container.task);
    log.memoryMb.push(container.memoryMb);
    log.vcores.push(container.vcores);
    log.startMs.push(container.allocatedMs);
    log.endMs.push(Number.isFinite(container.endMs) ? container.endMs : null);
  }

  /** The run ended at `endMs`: its last sample, and every column observation recorded. */
  finish(endMs: number): ObservedColumns {
    this.recordSample(endMs);
    if (this.liveContainers) {
      // Containers still held when the run ended (AMs of stuck apps, tasks cut by the horizon).
      for (const container of this.liveContainers) this.logContainer(container);
    }
    const nodes: NodeColumns = {
      nodeIndex: [],
      nodeGroup: [],
      memoryMb: [],
      vcores: [],
      containersAllocated: [],
      usedMemoryMbMs: [],
      usedVcoresMs: [],
      strandedMemoryMbSampled: [],
      strandedVcoresSampled: [],
      reservations: [],
    };
    for (const node of this.nodes) {
      if (this.nodeBuckets[node.index] !== OUT_OF_SERVICE) this.usageChanging(node, endMs);
      nodes.nodeIndex.push(node.index);
      nodes.nodeGroup.push(node.group);
      nodes.memoryMb.push(node.configuredMemoryMb);
      nodes.vcores.push(node.configuredVcores);
      nodes.containersAllocated.push(node.containersAllocated);
      nodes.usedMemoryMbMs.push(this.usedMemoryMbMs[node.index]!);
      nodes.usedVcoresMs.push(this.usedVcoresMs[node.index]!);
      nodes.strandedMemoryMbSampled.push(this.strandedMemoryMbSampled[node.index]!);
      nodes.strandedVcoresSampled.push(this.strandedVcoresSampled[node.index]!);
      nodes.reservations.push(node.reservations);
    }
    return {
      samples: this.samples.toColumns(),
      queueSamples: this.queueSampleColumns(),
      nodes,
      containers: this.containerLog,
    };
  }

  private queueSampleColumns(): QueueSampleColumns {
    const { timeMs, leaf, ...figures } = this.queueSamples.toColumns();
    const leaves = this.scheduler.leafQueues;
    return { timeMs, queue: leaf.map((i) => leaves[i]!.path), ...figures };
  }
}

/** The bucket of a node out of service: counted in none. */
const OUT_OF_SERVICE = 7;

/** 0 unused, 1: 1-19%, 2: 20-39%, 3: 40-59%, 4: 60-79%, 5: 80-99%, 6 full. */
function utilisationBucket(usedMemoryMb: number, capacityMemoryMb: number): number {
  if (usedMemoryMb <= 0) return 0;
  if (usedMemoryMb >= capacityMemoryMb) return 6;
  // One arithmetic path for every bucket: a branch per bucket would first run when a node first
  // reaches that bucket, and the optimised code holding it would be thrown away and rebuilt then.
  // The quotient is exact at bucket edges (5 x used = k x capacity), as both are whole numbers.
  return 1 + Math.floor((5 * usedMemoryMb) / capacityMemoryMb);
}
