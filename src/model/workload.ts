// A workload: the apps a trace or scenario submits, each an AM plus ordered stages of tasks.
// Plain data; trace readers and scenarios build it, the replay engine consumes it.

import type { Resources } from './resources.js';

/** Task run times on reference hardware (speed factor 1), either one value for all or one per task. */
export type TaskDurations =
  | { readonly kind: 'uniform'; readonly durationMs: number }
  | { readonly kind: 'per-task'; readonly durationsMs: Float64Array };

export interface Stage {
  /** What the tasks are, for reports: `map`, `reduce`, ... */
  readonly name: string;
  /** Request priority inside the app; a lower number is served first (MapReduce: reduces 10, maps 20). */
  readonly priority: number;
  /** The container asked for, before the scheduler normalizes it. */
  readonly request: Resources;
  readonly taskCount: number;
  readonly durations: TaskDurations;
  /**
   * Fraction of the previous stage's tasks that must have completed before this stage's tasks
   * are requested: MapReduce reducer slow-start (0.05 by default); 1 waits for the whole stage.
   * Ignored for the first stage, which is requested when the AM has started.
   */
  readonly startAfterFraction: number;
  /**
   * From the moment the start condition holds to the moment the tasks are asked for: the AM's
   * reaction time (its next heartbeat). 0 for modelled workloads; observed in RM logs.
   */
  readonly requestDelayMs: number;
  /**
   * The AM asks for this stage only on its own steps, this far apart from the app's submission
   * (SLS's simulated AM, am-steps.ts): at the second step after the start condition holds, the
   * ask then waiting for the nodes' regular heartbeats. requestDelayMs is not used. The delay is
   * the AM's, recomputed from when the start condition holds in the replay, so a what-if that
   * moves that moment moves the ask with the AM's step grid.
   */
  readonly amStepMs?: number;
  /**
   * Whether a task's duration only starts counting once the previous stage has completed.
   * True for modelled reduces: a reduce started early holds its container while it waits for
   * the last map's output. False when durations were observed (they already include the wait).
   */
  readonly waitsForPreviousStage: boolean;
  /**
   * The app's AM holds this stage's one container for as long as the app's other work runs, as
   * an unmanaged AM holds a working container of its own (SLS's simulated MapReduce AM does):
   * its task has no run time of its own. The stage completes as its container is allocated (a
   * next stage asked for after it has startAfterFraction 1, its request delay counted from that
   * allocation), and the container is released when every other stage is done.
   */
  readonly heldByAm?: boolean;
  /**
   * How many distinct hosts and racks the stage's asks name beside ANY (a MapReduce map names
   * the hosts of its input split and their racks). rmreplay has no data placement, so no node
   * ever matches them: the CapacityScheduler places such asks off-switch after its delay
   * (docs/model.md 3.6). Absent or 0: the asks are ANY only, placed without delay.
   */
  readonly namedLocations?: number;
  /**
   * The local-disk bandwidth (MB/s) one of its tasks reads and writes at while it runs at full
   * speed on reference hardware: what it shares of its node's `hardware.diskMbPerS` when a run
   * models contention (docs/model.md 6.1). Absent or 0: its tasks do no disk I/O that slows them
   * (RM logs and SWIM traces, whose observed durations already hold their I/O).
   */
  readonly diskMbPerS?: number;
}

/** MapReduce request priorities (RMContainerAllocator): reduces are served before maps. */
export const MAP_PRIORITY = 20;
export const REDUCE_PRIORITY = 10;

/** What a modelled stage's tasks are: their container and their run times. */
export interface StageTasks {
  readonly request: Resources;
  readonly taskCount: number;
  readonly durations: TaskDurations;
  /** Stage.diskMbPerS. */
  readonly diskMbPerS?: number;
}

/**
 * A modelled MapReduce job's stages: maps, then reduces asked for at the slow-start fraction
 * whose run time counts from the last map's end.
 */
export function mapReduceStages(maps: StageTasks, reduces: StageTasks, reduceSlowStart: number): Stage[] {
  return [
    { name: 'map', priority: MAP_PRIORITY, ...maps, startAfterFraction: 0, requestDelayMs: 0, waitsForPreviousStage: false },
    {
      name: 'reduce',
      priority: REDUCE_PRIORITY,
      ...reduces,
      startAfterFraction: reduceSlowStart,
      requestDelayMs: 0,
      waitsForPreviousStage: true,
    },
  ];
}

/**
 * A modelled MapReduce job (`mapreduce`, MAPREDUCE, timings not observed) in queue `default`
 * unless said, submitted at 0 unless said, whose AM lets go of its container as its last task
 * ends: the jobs the built-in scenarios submit.
 */
export function modelledMapReduceApp(
  fields: Pick<AppSpec, 'id' | 'name' | 'user' | 'amRequest' | 'amStartupMs' | 'stages'> &
    Partial<Pick<AppSpec, 'queue' | 'submitMs'>>,
): AppSpec {
  return {
    type: 'mapreduce',
    applicationType: 'MAPREDUCE',
    observed: false,
    queue: 'default',
    submitMs: 0,
    amTeardownMs: 0,
    ...fields,
  };
}

/**
 * How an app's ApplicationMaster drives its stages:
 * - `mapreduce`: maps then reduces, with reducer slow-start, ramp-up from the headroom and
 *   reducer preemption when maps starve (docs/model.md 6);
 * - `dag`: stages of executors (Spark/Tez style), each asked for once the previous one has
 *   progressed far enough (`startAfterFraction`, usually 1);
 * - `streaming`: a long-running service whose containers are held until the replay ends.
 */
export type AppType = 'mapreduce' | 'dag' | 'streaming';

/**
 * What one attempt of an app runs once its AM container is allocated: the AM's start-up, its
 * stages of tasks, its wrap-up. An app's own fields are its last attempt; a log app may also
 * carry the attempts that failed before it (docs/model.md 12).
 */
export interface AttemptSpec {
  /** From the AM container's allocation to the AM's first task requests. */
  readonly amStartupMs: number;
  /** From the end of the app's last task to its AM container's release (the AM's wrap-up). */
  readonly amTeardownMs: number;
  readonly stages: readonly Stage[];
  /**
   * Observed in a log: this attempt's AM container ended this long after its allocation and the
   * attempt failed (the AM crashed or exited with an error). Absent: the attempt runs to its end.
   */
  readonly amFailsAfterMs?: number;
}

export interface AppSpec extends AttemptSpec {
  readonly id: string;
  readonly name: string;
  readonly type: AppType;
  /** YARN's applicationType label (MAPREDUCE, SPARK, ...), carried into reports. */
  readonly applicationType: string;
  /**
   * Timings observed in a log rather than modelled: task durations are container holding
   * times and request delays are the AM's measured reactions, so the AM's heartbeat latency,
   * reducer ramp-up and preemption are not modelled on top of them.
   */
  readonly observed: boolean;
  readonly queue: string;
  readonly user: string;
  readonly submitMs: number;
  /** The AM container asked for, before normalization (every attempt asks for the same). */
  readonly amRequest: Resources;
  /** Observed in a log: attempts that failed before the last one, in order, each with `amFailsAfterMs`. */
  readonly failedAttempts?: readonly AttemptSpec[];
  /** Observed in a log: the app was killed (`yarn application -kill`) this long after its submission. */
  readonly killAfterMs?: number;
  /**
   * Observed in a log: the app ended FINISHED but its AM unregistered with this final status (a
   * job that failed, or that its AM gave up as killed): the replay runs it as recorded and ends it
   * FINISHED with this final status, counted as failed (killed). Absent: it succeeded.
   */
  readonly finalStatus?: 'FAILED' | 'KILLED';
  /**
   * Observed in a log: the RM it ran under stopped or restarted without recovering it this long
   * after its submission, and the app was lost (its tasks still running then never end).
   */
  readonly lostAfterMs?: number;
  /**
   * Its ApplicationMaster runs outside the cluster (an unmanaged AM): no AM container is asked
   * for, and its attempt starts when the scheduler accepts it; amStartupMs counts from then.
   */
  readonly unmanagedAm?: boolean;
}

export interface Workload {
  readonly name: string;
  /** In submission order: an app's index is its YARN application id order. */
  readonly apps: readonly AppSpec[];
}

export function taskDurationMs(stage: Stage, taskIndex: number): number {
  const d = stage.durations;
  return d.kind === 'uniform' ? d.durationMs : (d.durationsMs[taskIndex] ?? 0);
}

export function totalTasks(workload: Workload): number {
  let tasks = 0;
  for (const app of workload.apps) for (const stage of app.stages) tasks += stage.taskCount;
  return tasks;
}
