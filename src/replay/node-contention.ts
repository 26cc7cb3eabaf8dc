// Hardware that slows down under load (docs/model.md, "Contention"): a node's tasks share its
// physical cores and, when its hardware states one, its disk bandwidth. When the CPU its running
// containers ask for is more than the node has, every task on it runs at cores / demand of full
// speed (processor sharing); when the disk bandwidth its tasks ask for is more than the node has,
// every task doing disk I/O runs at no more than bandwidth / disk demand. This is recomputed
// whenever a container starts or ends on the node: each task's remaining work (ms of full-speed
// work) is brought up to date and its end re-timed. A node holds two rates, not one per task:
// its tasks without disk demand run at the CPU rate, those with some at the lower of the two.
// A container is its own end event; a re-timed end is queued again, and the end events left
// behind are told apart by `Container.endMs` (the current end) and `Container.loadIndex` (-1
// once ended). The engine calls this only at a container's start and end, and an AM's
// registration; with contention off it holds no model at all, so the replay's hot path pays one
// null check.

import type { Cluster } from '../model/cluster.js';
import type { ContentionSettings } from '../model/contention.js';
import type { ContentionStats } from '../model/replay-result.js';
import type { Container } from './state.js';
import type { RunContext } from './run-context.js';

export type { ContentionSettings } from '../model/contention.js';

/** Container.loadIndex: not on a node's task list (not started, streaming without end, or ended). */
const NOT_LOADED = -1;
/** Container.loadIndex: its work starts later (its AM launches it on its next heartbeat); its own event starts it. */
const STARTS_LATER = -2;

/** Container.slowedBy: the node's cores, or its disk, held the task below full speed for a while. */
const SLOWED_BY_CPU = 1;
const SLOWED_BY_DISK = 2;

/** A task counts as stretched above this ratio: end times are whole ms, so a ratio a hair above 1 is rounding. */
const STRETCH_EPSILON = 1e-3;

class NodeLoad {
  /** Tasks doing their work now (each knows its position, Container.loadIndex). */
  readonly tasks: Container[] = [];
  /** Cores asked for by the tasks and AMs running on the node. */
  demandCores = 0;
  /** Fraction of full speed each task runs at: min(1, cores / demandCores). */
  rate = 1;
  /** Disk bandwidth (MB/s) asked for by the tasks running on the node. */
  demandDiskMbPerS = 0;
  /** Fraction of full speed a task with disk demand runs at: min(rate, diskMbPerS / demandDiskMbPerS). */
  diskTaskRate = 1;
  /** Container.slowedBy bits for the time since settledMs: of a task without disk demand, of one with. */
  cpuTaskSlowedBy = 0;
  diskTaskSlowedBy = 0;
  /** When the tasks' remaining work was last brought up to date. */
  settledMs = 0;
  everOverloaded = false;
  everDiskOverloaded = false;
  constructor(
    readonly cores: number,
    /** The node's disk bandwidth; 0: not modelled, its tasks ask for none. */
    readonly diskMbPerS: number,
  ) {}
}

export class NodeContention {
  private readonly loads: NodeLoad[] = [];
  private tasksTimed = 0;
  private tasksStretched = 0;
  private tasksStretchedByCpu = 0;
  private tasksStretchedByDisk = 0;
  /** Some node states its disk bandwidth: the stats tell CPU and disk apart. */
  private readonly diskModelled: boolean;
  private stretchSum = 0;
  private maxStretch = 1;

  constructor(
    cluster: Cluster,
    private readonly settings: ContentionSettings,
    /** Queues a container's own event: its start, or its end as the node's load moves it. */
    private readonly ctx: RunContext,
  ) {
    // In the engine's node order: group by group. A group without `hardware` has as many cores as
    // its NodeManager advertises vcores, and no disk bandwidth.
    let diskModelled = false;
    for (const group of cluster.nodeGroups) {
      const cores = group.hardware?.cores ?? group.vcores;
      const diskMbPerS = group.hardware?.diskMbPerS ?? 0;
      if (diskMbPerS > 0) diskModelled = true;
      for (let i = 0; i < group.count; i++) this.loads.push(new NodeLoad(cores, diskMbPerS));
    }
    this.diskModelled = diskModelled;
  }

  /** A task's work starts at `startMs` (now or, launched on its AM's next heartbeat, later). */
  taskStarts(container: Container, startMs: number, nowMs: number): void {
    if (startMs > nowMs) {
      // Its end at full speed is queued now, as without contention, so that a run whose nodes are
      // never overloaded keeps the order of same-instant ends, and so its result; its start is
      // queued after it (a start at the same instant as the end, of a task of no duration, is
      // told apart by loadIndex: whichever of the two runs first starts the task).
      container.loadIndex = STARTS_LATER;
      if (container.app.spec.type !== 'streaming') {
        container.endMs = startMs + container.durationMs;
        this.ctx.schedule(container.endMs, container);
      }
      this.ctx.schedule(startMs, container);
      return;
    }
    const load = this.loads[container.node.index]!;
    this.settle(load, nowMs);
    container.remainingWorkMs = container.app.spec.type === 'streaming' ? Infinity : container.durationMs;
    container.loadIndex = load.tasks.length;
    load.tasks.push(container);
    load.demandCores += container.vcores;
    if (load.diskMbPerS > 0) {
      // The stage's demand is on reference hardware: a node `speedFactor` times faster moves the
      // same bytes in that much less time.
      const diskMbPerS = (container.stage!.spec.diskMbPerS ?? 0) * container.node.speedFactor;
      container.diskMbPerS = diskMbPerS;
      load.demandDiskMbPerS += diskMbPerS;
    }
    this.retime(load, nowMs);
  }

  /**
   * A container's own event came due: true when it is the task's current end. A task waiting to
   * start starts now; an end left behind by a re-timing is ignored.
   */
  isEnd(container: Container, nowMs: number): boolean {
    const at = container.loadIndex;
    if (at === STARTS_LATER) {
      this.taskStarts(container, nowMs, nowMs);
      return false;
    }
    return at >= 0 && container.endMs === nowMs;
  }

  /** An AM's container was allocated: it starts up. */
  amStarted(am: Container, nowMs: number): void {
    this.changeAmDemand(am, this.settings.amStartupCores, nowMs);
  }

  /** An AM registered: from now on it tracks its tasks. */
  amRegistered(am: Container, nowMs: number): void {
    this.changeAmDemand(am, this.settings.amWorkCores, nowMs);
  }

  /** A container was released (its task ended or was killed, its AM finished, its node left). */
  released(container: Container, nowMs: number): void {
    if (container.stage === null) {
      this.changeAmDemand(container, 0, nowMs);
      return;
    }
    const at = container.loadIndex;
    if (at === STARTS_LATER) container.loadIndex = NOT_LOADED;
    if (at < 0) return;
    const load = this.loads[container.node.index]!;
    this.settle(load, nowMs);
    const tasks = load.tasks;
    const last = tasks.pop()!;
    if (last !== container) {
      tasks[at] = last;
      last.loadIndex = at;
    }
    container.loadIndex = NOT_LOADED;
    load.demandCores -= container.vcores;
    // Only tasks ask for disk: with none left the demand is 0, whatever the sums' rounding left.
    if (container.diskMbPerS > 0) load.demandDiskMbPerS = tasks.length === 0 ? 0 : load.demandDiskMbPerS - container.diskMbPerS;
    if (!container.killed && container.durationMs > 0) {
      this.recordStretch((nowMs - container.startMs) / container.durationMs, container.slowedBy);
    }
    this.retime(load, nowMs);
  }

  stats(): ContentionStats {
    let nodesOverloaded = 0;
    let nodesDiskOverloaded = 0;
    for (const load of this.loads) {
      if (load.everOverloaded) nodesOverloaded++;
      if (load.everDiskOverloaded) nodesDiskOverloaded++;
    }
    const stats: ContentionStats = {
      tasksTimed: this.tasksTimed,
      tasksStretched: this.tasksStretched,
      meanStretch: this.tasksStretched > 0 ? this.stretchSum / this.tasksStretched : 1,
      maxStretch: this.maxStretch,
      nodesOverloaded,
    };
    // Runs without disk bandwidth keep the stats (and the results) they had before it was modelled.
    if (!this.diskModelled) return stats;
    return {
      ...stats,
      tasksStretchedByCpu: this.tasksStretchedByCpu,
      tasksStretchedByDisk: this.tasksStretchedByDisk,
      nodesDiskOverloaded,
    };
  }

  private changeAmDemand(am: Container, cores: number, nowMs: number): void {
    const load = this.loads[am.node.index]!;
    this.settle(load, nowMs);
    load.demandCores += cores - am.cpuCores;
    am.cpuCores = cores;
    this.retime(load, nowMs);
  }

  /** Bring every task's remaining work up to `nowMs` at the rates that held since the last change. */
  private settle(load: NodeLoad, nowMs: number): void {
    const elapsedMs = nowMs - load.settledMs;
    const doneMs = elapsedMs * load.rate;
    load.settledMs = nowMs;
    if (doneMs === 0) return;
    const diskDoneMs = elapsedMs * load.diskTaskRate;
    const cpuSlowedBy = load.cpuTaskSlowedBy;
    const diskSlowedBy = load.diskTaskSlowedBy;
    for (const task of load.tasks) {
      if (task.diskMbPerS > 0) {
        task.remainingWorkMs -= diskDoneMs;
        task.slowedBy |= diskSlowedBy;
      } else {
        task.remainingWorkMs -= doneMs;
        task.slowedBy |= cpuSlowedBy;
      }
    }
  }

  /** The node's demand changed: its rates, and every task's end at its rate. */
  private retime(load: NodeLoad, nowMs: number): void {
    const demand = load.demandCores;
    const rate = demand > load.cores + 1e-9 ? load.cores / demand : 1;
    if (rate < 1 && load.tasks.length > 0) load.everOverloaded = true;
    load.rate = rate;
    load.cpuTaskSlowedBy = rate < 1 ? SLOWED_BY_CPU : 0;
    let diskTaskRate = rate;
    if (load.diskMbPerS > 0) {
      const diskDemand = load.demandDiskMbPerS;
      const diskRate = diskDemand > load.diskMbPerS * (1 + 1e-9) ? load.diskMbPerS / diskDemand : 1;
      if (diskRate < 1) load.everDiskOverloaded = true;
      diskTaskRate = Math.min(rate, diskRate);
      load.diskTaskRate = diskTaskRate;
      // The tighter limit slowed the task; at a tie both did.
      load.diskTaskSlowedBy = (diskRate < 1 && diskRate <= rate ? SLOWED_BY_DISK : 0) | (rate < 1 && rate <= diskRate ? SLOWED_BY_CPU : 0);
    }
    for (const task of load.tasks) {
      const taskRate = task.diskMbPerS > 0 ? diskTaskRate : rate;
      const endMs = Math.round(nowMs + Math.max(0, task.remainingWorkMs) / taskRate);
      if (endMs === task.endMs) continue;
      task.endMs = endMs;
      if (endMs !== Infinity) this.ctx.schedule(endMs, task);
    }
  }

  private recordStretch(stretch: number, slowedBy: number): void {
    this.tasksTimed++;
    if (stretch <= 1 + STRETCH_EPSILON) return;
    this.tasksStretched++;
    if ((slowedBy & SLOWED_BY_CPU) !== 0) this.tasksStretchedByCpu++;
    if ((slowedBy & SLOWED_BY_DISK) !== 0) this.tasksStretchedByDisk++;
    this.stretchSum += stretch;
    if (stretch > this.maxStretch) this.maxStretch = stretch;
  }
}

/** The run note on what contention did. */
export function contentionNote(stats: ContentionStats): string {
  if (stats.tasksStretched === 0) return `Contention on: no task was stretched (${stats.tasksTimed} tasks timed).`;
  const stretched =
    `Tasks stretched by contention: ${stats.tasksStretched} of ${stats.tasksTimed}, ` +
    `mean x${stats.meanStretch.toFixed(2)}, max x${stats.maxStretch.toFixed(2)}`;
  if (stats.tasksStretchedByDisk === undefined) return `${stretched} on ${stats.nodesOverloaded} nodes.`;
  return (
    `${stretched}; slowed by their nodes' cores: ${stats.tasksStretchedByCpu ?? 0} (cores overloaded on ${stats.nodesOverloaded} nodes), ` +
    `by their disks: ${stats.tasksStretchedByDisk} (disk overloaded on ${stats.nodesDiskOverloaded ?? 0} nodes).`
  );
}
