// What a controller that looks ahead may ask of the run it steers: the apps submitted so far,
// and a forecast, the same run replayed from its start under another admission policy with
// other apps arriving after now. The replay side implements it; policies see only this.

import type { AppSpec } from '../../model/workload.js';
import type { AdmissionPolicy } from './types.js';

export interface LookaheadHost {
  /** The apps the run has submitted so far, in submission order: what has happened, never what will. */
  submittedApps(): readonly AppSpec[];
  /**
   * The run replayed from time 0 on the same cluster and seed, with the apps submitted so far
   * followed by `futureApps`, under `admission`, up to `untilMs`. A policy that repeats the
   * run's own decisions up to now reproduces the run up to now exactly (same events in the
   * same order), so what differs after now is the forecast's assumption alone.
   */
  forecast(request: ForecastRequest): ForecastOutcome;
}

export interface ForecastRequest {
  readonly admission: AdmissionPolicy;
  /** Apps assumed to arrive after now, in submission order, each submitted after now. */
  readonly futureApps: readonly AppSpec[];
  readonly untilMs: number;
}

export interface ForecastOutcome {
  /** Per app, the submitted ones then futureApps: when it was submitted, ms. */
  readonly submitMs: readonly number[];
  /** When it finished, failed or was rejected, ms; null when it had not by untilMs. */
  readonly endMs: readonly (number | null)[];
}
