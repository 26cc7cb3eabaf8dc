// The contract between the replay engine and an admission policy. A policy sees a narrow,
// read-only view of cluster state (cluster-view.ts) and returns a decision per waiting app; the
// engine applies it.

import type { Resources } from '../../model/resources.js';
import type { AppSpec } from '../../model/workload.js';
import type { AmLimitOverride } from '../scheduling/spec.js';
import type { ClusterView } from './cluster-view.js';

export interface AdmissionCandidate {
  /** The app's AM container as the scheduler will grant it (normalized). */
  readonly amResource: Resources;
  readonly submitMs: number;
}

/**
 * `admit`: admit now, then consider the next waiting app.
 * `skip`: keep this app waiting but consider the next one (no head-of-line blocking).
 * `stop`: keep this app and every later one waiting until the next re-evaluation.
 */
export type AdmissionDecision = 'admit' | 'skip' | 'stop';

export interface AdmissionPolicy {
  /** Canonical spec string, e.g. `reserve:8vcores`. */
  readonly spec: string;
  /** One line for tables and `--help`. */
  readonly description: string;
  /** Parameters as plain data, stored with the run. */
  readonly parameters: Readonly<Record<string, number | string>>;
  /**
   * Whether decisions depend on free resources, so the engine must re-evaluate waiting apps
   * whenever a container is released (not only on submissions and app ends).
   */
  readonly watchesFreeResources: boolean;
  /**
   * What becomes of the scheduler's own AM limits (maximum-am-resource-percent, maxAMShare):
   * kept as configured, lifted (the policy replaces them, or there is no control at all), or
   * set to one share for every queue.
   */
  readonly amLimit: AmLimitOverride;
  /**
   * When waiting apps are decided on. `events`: on every submission and app end (and, with
   * watchesFreeResources, container release), the whole waiting list in order. `node-updates`
   * (AutoAdmin's controller): a submission is decided at once when no app waits before it; the
   * app at the head of the waiting list is admitted at a NodeManager heartbeat, one per
   * heartbeat, by a node with room for its AM (docs/model.md, "Admission control").
   */
  readonly admitsOn: 'events' | 'node-updates';
  decide(candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision;
  /** An adaptive controller of every queue's AM limit, one per run (MARP's feedback loop). */
  createController?(): AmShareController;
}

/**
 * A controller of one admission setting, stepped every `intervalMs` of simulated time.
 * `am-limit` (MARP): the share it returns resets every queue's AM limit (CapacityScheduler
 * maximum-am-resource-percent, FairScheduler maxAMShare) as `yarn rmadmin -refreshQueues`
 * would, from the next allocation on; running AMs are never killed. `admission`: the share is
 * its own setting (a reservation, as a share of the cluster), and its `decide` replaces the
 * policy's for every waiting app, read again whenever the setting changes.
 */
export interface AmShareController {
  /** Its name in the stored steps, e.g. `marp-feedback`. */
  readonly name: string;
  readonly intervalMs: number;
  readonly controls: 'am-limit' | 'admission';
  /**
   * One control step on the cluster as it is now; the share to apply, with what led to it.
   * `lookahead` lets it replay the run from its start under another policy (a forecast); the
   * engine always gives it, a controller that reads only the view may be stepped without.
   */
  step(view: ClusterView, nowMs: number, lookahead?: LookaheadHost): ControllerStep;
  /** With `controls` = `admission`: the decision on a waiting app under the setting now. */
  decide?(candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision;
  /**
   * Whether further steps, with the cluster as it is now, would never change the share again:
   * the engine stops stepping a run that has nothing else left to do (a deadlock) only then.
   */
  settled(view: ClusterView): boolean;
}

/** One control step: the measurement, its filtered value, and the share before and after. */
export interface ControllerStep {
  readonly measured: number;
  readonly filtered: number;
  readonly oldShare: number;
  readonly newShare: number;
}

// What a controller that looks ahead may ask of the run it steers: the apps submitted so far,
// and a forecast, the same run replayed from its start under another admission policy with
// other apps arriving after now. The replay side implements it; policies see only this. It is
// here, with AdmissionPolicy, because each names the other (a forecast runs under a policy).

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
