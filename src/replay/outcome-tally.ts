// The summary's counts of a run's app outcomes (by final status, failure cause, last end), kept
// as each outcome is handed over, so that a run whose outcomes go to storage as they become final
// need not hold them all to count them.

import { FAILURE_CAUSES } from '../model/replay-result.js';
import type { AppOutcome, FailureCause } from '../model/replay-result.js';

export class OutcomeTally {
  total = 0;
  finished = 0;
  failed = 0;
  killed = 0;
  rejected = 0;
  longRunning = 0;
  unfinished = 0;
  /** The first app's submission (apps come in submission order); 0 for a run of none. */
  firstSubmitMs = 0;
  lastEndMs: number | null = null;
  readonly failuresByCause = Object.fromEntries(FAILURE_CAUSES.map((c) => [c, 0])) as Record<FailureCause, number>;

  add(app: AppOutcome): void {
    if (this.total === 0) this.firstSubmitMs = app.submitMs;
    this.total++;
    // Counted by final status, as queries/recorded_cluster.sql counts the log's apps.
    if (app.state === 'REJECTED') this.rejected++;
    else if (app.finalStatus === 'SUCCEEDED') this.finished++;
    else if (app.finalStatus === 'FAILED') this.failed++;
    else if (app.finalStatus === 'KILLED') this.killed++;
    else if (app.type !== 'streaming') this.unfinished++;
    else this.longRunning++;
    if (app.failureCause) this.failuresByCause[app.failureCause]++;
    if (app.finishMs !== null && (this.lastEndMs === null || app.finishMs > this.lastEndMs)) this.lastEndMs = app.finishMs;
  }
}
