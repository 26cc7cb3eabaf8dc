// The contract between the replay engine and an admission policy. A policy sees a narrow,
// read-only view of cluster state (cluster-view.ts) and returns a decision per waiting app; the
// engine applies it.

import type { Resources } from '../../model/resources.js';
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
  decide(candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision;
}
