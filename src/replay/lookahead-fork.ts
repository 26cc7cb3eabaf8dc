// A run's forecasts for a controller that looks ahead (LookaheadHost): a fork of the run by
// re-simulation. The run is replayed from time 0 on the same cluster, seed and heartbeat phases
// with the apps it has submitted so far and the forecast's own apps after them, under the
// forecast's policy, up to the forecast's horizon. Events are ordered by (time, priority,
// sequence) and a later app's submission is queued only when the one before it is submitted, so
// a policy that repeats the run's own settings reproduces the run up to now exactly; only
// what happens after now can differ. Cloning the engine's state instead would be cheaper per
// forecast but reach into every part of it; this costs a replay up to the horizon.
// What a log recorded about the cluster (node changes) is kept up to now only: beyond now it is
// the future.

import type { AppSpec } from '../model/workload.js';
import type { ReplayResult } from '../model/replay-result.js';
import type { ForecastOutcome, ForecastRequest, LookaheadHost } from '../policies/admission/types.js';
import type { ReplayInput } from './replay-input.js';

export class ReplayFork implements LookaheadHost {
  constructor(
    private readonly input: ReplayInput,
    /** Apps the run has submitted so far (they are submitted in index order). */
    private readonly submittedCount: () => number,
    /** The clock of the run: the forecast is made at this instant. */
    private readonly nowMs: () => number,
    private readonly replay: (input: ReplayInput) => ReplayResult,
  ) {}

  submittedApps(): readonly AppSpec[] {
    return this.input.workload.apps.slice(0, this.submittedCount());
  }

  forecast(request: ForecastRequest): ForecastOutcome {
    const { input } = this;
    const nowMs = this.nowMs();
    const apps = [...this.submittedApps(), ...request.futureApps];
    const timeline = input.nodeTimeline;
    // Every setting of the run's (seed, phases, timeout, and whatever else shapes it) but what
    // reports on it: the fork is the run, stopped at the horizon.
    const { onProgress: _progress, onAppOutcome: _outcome, recordContainers: _containers, ...options } = input.options ?? {};
    const result = this.replay({
      workload: { ...input.workload, apps },
      cluster: input.cluster,
      ...(timeline ? { nodeTimeline: { ...timeline, changes: timeline.changes.filter((c) => c.atMs <= nowMs) } } : {}),
      admission: request.admission,
      options: {
        ...options,
        horizonMs: request.untilMs,
        // Samples are only read, never acted on: one per horizon keeps them cheap.
        sampleIntervalMs: Math.max(1, request.untilMs),
      },
    });
    return { submitMs: result.apps.map((a) => a.submitMs), endMs: result.apps.map((a) => a.finishMs) };
  }
}
