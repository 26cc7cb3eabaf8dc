// The comparison behind `validate`, on plain per-app figures: which app of one RM log is which
// app of another (matchApps), how each app's real change (CHANGED log - BASE log) compares with
// the change the replay predicts (replayed under the change - replayed as configured), and the
// headline figures over all apps (compareApps). No store, no replay: api/validate.ts feeds it.

import type { ValidationJudgement } from '../store/index.js';
import { UserError } from '../model/errors.js';

/** An app really changed when its turnaround moved by more than this between the two logs (ms). */
export const CHANGE_THRESHOLD_MS = 5000;
/** A change is predicted well within this many ms of the real change ... */
export const TOLERANCE_MS = 5000;
/** ... or within this share of the real change, whichever is larger. */
export const TOLERANCE_SHARE = 0.25;
/** Task counts of one app in the two logs may differ by this many tasks ... */
export const TASK_COUNT_SLACK = 2;
/** ... or by this share of the larger count, whichever is larger, before the apps are different work. */
export const TASK_COUNT_SHARE = 0.1;

/** What matching reads of each app a log replays, in submission order. */
export interface MatchableApp {
  readonly appId: string;
  /** The log's app name, or null where the log prints none. */
  readonly name: string | null;
  readonly user: string;
  readonly queue: string;
  /** Task containers of the attempt the app ended with. */
  readonly tasks: number;
  /** Log time of the submission (ms). */
  readonly submitMs: number;
}

/** Apps submitted this close together (each counted from its log's first) may come in either order. */
export const SUBMISSION_TIE_MS = 1000;

export interface MatchedLogs {
  /**
   * Pairs in the base log's submission order: base[i] is changed[changedIndex], which is i except
   * among apps submitted together (SUBMISSION_TIE_MS).
   */
  readonly pairs: readonly { readonly base: MatchableApp; readonly changed: MatchableApp; readonly changedIndex: number }[];
  /** Where the two logs' submissions differ, said once. */
  readonly notes: readonly string[];
}

/**
 * The matching rule: the i-th app submitted in one log is the i-th submitted in the other (as
 * SLS and any rerun of the same submission script number them), provided the logs have the same
 * number of apps and, at every position, the same user, the same leaf queue (a CapacityScheduler
 * log names `default`, a FairScheduler log `root.default`), the same name where both logs print
 * one, and task counts within max(TASK_COUNT_SLACK, TASK_COUNT_SHARE of the larger). Apps
 * submitted together are the exception: the order in which two submissions a few milliseconds
 * apart reach the RM is chance (SLS starts the jobs of one instant on several threads), so within
 * a run of apps each submitted within SUBMISSION_TIE_MS of the one before, in both logs, an app is
 * paired with the agreeing app of the other log's run nearest in task count (its own position on
 * a tie).
 * Anything else is two different workloads: refused in one line naming the first disagreement.
 */
export function matchApps(baseTrace: string, base: readonly MatchableApp[], changedTrace: string, changed: readonly MatchableApp[]): MatchedLogs {
  const different = `traces ${baseTrace} and ${changedTrace} are different workloads`;
  if (base.length !== changed.length) {
    throw new UserError(`${different}: ${baseTrace} has ${base.length} apps, ${changedTrace} has ${changed.length}`);
  }
  const taken = new Array<boolean>(changed.length).fill(false);
  const pairs = base.map((b, i) => {
    const j = tiedPartner(base, changed, i, taken);
    if (j === null) {
      const problem = disagreement(b, changed[i]!) ?? 'is matched to another app submitted with it';
      throw new UserError(
        `${different}: app ${i + 1} in submission order (${b.appId} in ${baseTrace}, ${changed[i]!.appId} in ${changedTrace}) ${problem}`,
      );
    }
    taken[j] = true;
    return { base: b, changed: changed[j]!, changedIndex: j };
  });
  return { pairs, notes: submissionNotes(pairs) };
}

/**
 * The changed app base[i] pairs with: among the free apps of the run submitted together with
 * position i in both logs (position i alone when none is), the agreeing one nearest in task
 * count, position i on a tie, else the earliest; null if none agrees.
 */
function tiedPartner(base: readonly MatchableApp[], changed: readonly MatchableApp[], i: number, taken: readonly boolean[]): number | null {
  const b = base[i]!;
  const tied = (apps: readonly MatchableApp[], k: number): boolean => Math.abs(apps[k]!.submitMs - apps[k - 1]!.submitMs) <= SUBMISSION_TIE_MS;
  let first = i;
  while (first > 0 && tied(base, first) && tied(changed, first)) first--;
  let last = i;
  while (last + 1 < base.length && tied(base, last + 1) && tied(changed, last + 1)) last++;
  let best: number | null = null;
  let bestGap = Infinity;
  for (let j = first; j <= last; j++) {
    if (taken[j] || disagreement(b, changed[j]!) !== null) continue;
    const gap = Math.abs(b.tasks - changed[j]!.tasks);
    if (gap < bestGap || (gap === bestGap && j === i)) [best, bestGap] = [j, gap];
  }
  return best;
}

function disagreement(base: MatchableApp, changed: MatchableApp): string | null {
  if (base.user !== changed.user) return `is submitted by ${base.user} in one and ${changed.user} in the other`;
  if (leafQueue(base.queue) !== leafQueue(changed.queue)) return `runs in queue ${base.queue} in one and ${changed.queue} in the other`;
  if (base.name !== null && changed.name !== null && base.name !== changed.name) {
    return `is named ${base.name} in one and ${changed.name} in the other`;
  }
  const slack = Math.max(TASK_COUNT_SLACK, TASK_COUNT_SHARE * Math.max(base.tasks, changed.tasks));
  if (Math.abs(base.tasks - changed.tasks) > slack) return `runs ${base.tasks} tasks in one and ${changed.tasks} in the other`;
  return null;
}

function leafQueue(queue: string): string {
  return queue.slice(queue.lastIndexOf('.') + 1);
}

/**
 * A changed setting does not move submissions: where they do move (counted from each log's
 * first), part of the real change is the arrivals', which the replay (keeping BASE's) cannot see.
 */
function submissionNotes(pairs: MatchedLogs['pairs']): string[] {
  if (pairs.length === 0) return [];
  const baseOrigin = pairs[0]!.base.submitMs;
  const changedOrigin = pairs[0]!.changed.submitMs;
  let worst = 0;
  let worstIndex = 0;
  pairs.forEach(({ base, changed }, i) => {
    const shift = Math.abs(changed.submitMs - changedOrigin - (base.submitMs - baseOrigin));
    if (shift > worst) [worst, worstIndex] = [shift, i];
  });
  if (worst <= CHANGE_THRESHOLD_MS) return [];
  return [
    `submissions differ between the logs by up to ${(worst / 1000).toFixed(1)} s (app ${worstIndex + 1}, counted from each log's ` +
      "first): the real change includes the arrivals', which the replay keeps as the base log has them",
  ];
}

/** How one side ended an app: its end state, and its turnaround (finish - submit, ms) if it ended. */
export interface AppEnd {
  /** FINISHED, FAILED, KILLED, REJECTED; RUNNING / ACCEPTED (or null, a log's unknown) if it never ended. */
  readonly state: string | null;
  readonly turnaroundMs: number | null;
}

/** One matched app as the two logs recorded it and the two replays of the base log left it. */
export interface AppEnds {
  readonly baseAppId: string;
  readonly changedAppId: string;
  readonly user: string;
  readonly queue: string;
  readonly recordedBase: AppEnd;
  readonly recordedChanged: AppEnd;
  /** The base log replayed as configured. */
  readonly replayedBase: AppEnd;
  /** The base log replayed under the change: the prediction. */
  readonly replayedChanged: AppEnd;
}

/** A matched app, its ends on each side and how its predicted change compares with its real one. */
export interface ValidationApp extends AppEnds, ValidationJudgement {
  /** In submission order, from 0 (as run_apps.app_index). */
  readonly appIndex: number;
}

/** When each side's apps were submitted first and ended last, for the makespans. */
export interface Makespans {
  readonly recordedBaseMs: number | null;
  readonly recordedChangedMs: number | null;
  readonly replayedBaseMs: number | null;
  /** The base log replayed under the change. */
  readonly predictedMs: number | null;
}

export interface ValidationHeadline {
  readonly apps: number;
  /** Apps whose turnaround really changed by more than CHANGE_THRESHOLD_MS. */
  readonly appsChanged: number;
  /** Of those, apps whose change the replay predicted within tolerance. */
  readonly appsChangedPredicted: number;
  /** appsChangedPredicted / appsChanged; null when no app really changed. */
  readonly predictedShare: number | null;
  /** Apps that did not really change but were predicted to change by more than CHANGE_THRESHOLD_MS. */
  readonly unchangedPredictedToChange: number;
  /** Mean |turnaroundErrorPct| over the apps that have one. */
  readonly meanAbsErrorPct: number | null;
  /** The largest turnaroundErrorPct by size, with its sign; the first in submission order on a tie. */
  readonly worstErrorPct: number | null;
  readonly worstErrorAppIndex: number | null;
  readonly makespans: Makespans;
  /** (predicted - recorded changed) / recorded changed makespan, in percent. */
  readonly makespanErrorPct: number | null;
}

/** Each matched app's figures (in the order given: submission order) and the headline over them. */
export function compareApps(ends: readonly AppEnds[], makespans: Makespans): { apps: ValidationApp[]; headline: ValidationHeadline } {
  const apps = ends.map((app, appIndex) => compareApp(app, appIndex));
  const changed = apps.filter((a) => a.reallyChanged === true);
  const predicted = changed.filter((a) => a.predictedWithin === true).length;
  const unchangedPredictedToChange = apps.filter(
    (a) => a.reallyChanged === false && a.predictedChangeMs !== null && Math.abs(a.predictedChangeMs) > CHANGE_THRESHOLD_MS,
  ).length;
  const errors = apps.flatMap((a) => (a.turnaroundErrorPct === null ? [] : [a]));
  const worst = errors.reduce<ValidationApp | null>(
    (w, a) => (w === null || Math.abs(a.turnaroundErrorPct!) > Math.abs(w.turnaroundErrorPct!) ? a : w),
    null,
  );
  return {
    apps,
    headline: {
      apps: apps.length,
      appsChanged: changed.length,
      appsChangedPredicted: predicted,
      predictedShare: changed.length > 0 ? predicted / changed.length : null,
      unchangedPredictedToChange,
      meanAbsErrorPct: errors.length > 0 ? errors.reduce((sum, a) => sum + Math.abs(a.turnaroundErrorPct!), 0) / errors.length : null,
      worstErrorPct: worst?.turnaroundErrorPct ?? null,
      worstErrorAppIndex: worst?.appIndex ?? null,
      makespans,
      makespanErrorPct: percentError(makespans.predictedMs, makespans.recordedChangedMs),
    },
  };
}

function compareApp(app: AppEnds, appIndex: number): ValidationApp {
  const realChangeMs = difference(app.recordedChanged, app.recordedBase);
  const predictedChangeMs = difference(app.replayedChanged, app.replayedBase);
  const changeErrorMs = realChangeMs === null || predictedChangeMs === null ? null : predictedChangeMs - realChangeMs;
  const reallyChanged = realChangeMs === null ? null : Math.abs(realChangeMs) > CHANGE_THRESHOLD_MS;
  const predictedWithin =
    reallyChanged === true
      ? changeErrorMs !== null && Math.abs(changeErrorMs) <= Math.max(TOLERANCE_MS, TOLERANCE_SHARE * Math.abs(realChangeMs!))
      : null;
  const comparable = app.replayedChanged.state === app.recordedChanged.state && app.recordedChanged.turnaroundMs !== null;
  const turnaroundErrorPct = comparable ? percentError(app.replayedChanged.turnaroundMs, app.recordedChanged.turnaroundMs) : null;
  return { ...app, appIndex, realChangeMs, predictedChangeMs, changeErrorMs, turnaroundErrorPct, reallyChanged, predictedWithin };
}

/** later - earlier turnaround, where both ended the app in the same state. */
function difference(later: AppEnd, earlier: AppEnd): number | null {
  if (later.turnaroundMs === null || earlier.turnaroundMs === null || later.state !== earlier.state) return null;
  return later.turnaroundMs - earlier.turnaroundMs;
}

/** As queries/fidelity.sql defines it: none against a recorded zero. */
function percentError(replayed: number | null, recorded: number | null): number | null {
  return replayed === null || recorded === null || recorded === 0 ? null : ((replayed - recorded) / recorded) * 100;
}
