// `marp-feedback[:delay=S,low=L,high=H,min=A,max=B,start=P,q=Q,r=R]`: the self-balancing
// controller of Zhang, Křikava, Rouvoy and Seinturier ("Self-Balancing Job Parallelism and
// Throughput in Hadoop", DAIS 2016). A monitor-analyse-plan-execute loop every `delay` seconds
// of simulated time reads the cluster's memory utilisation u (allocated over total memory),
// smooths it with a one-dimensional Kalman filter, and moves MARP (maximum-am-resource-percent)
// by the square root of u's distance to a threshold:
//   u < low:  MARP += sqrt(low - u)    (the cluster idles: let more jobs run at once)
//   u > high: MARP -= sqrt(u - high)   (the cluster is saturated: let fewer jobs hold AMs)
// then clamps it to [min, max]. A change applies as `yarn rmadmin -refreshQueues` would: every
// queue's AM limit is recomputed and holds from the next allocation; running AMs stay.
//
// Defaults: the paper's thresholds (0.9, 0.95), period (10 s) and start (Hadoop's 0.1); MARP in
// [0.05, 1]. The paper gives no noise figures; q = 0.001 and r = 0.01 say utilisation drifts by
// about 3 points between steps and a single reading is off by about 10 (tasks start and end
// around it), which weighs a new reading by about 0.27 once the filter has settled.

import { memoryUtilisation } from './cluster-view.js';
import type { ClusterView } from './cluster-view.js';
import { ScalarKalmanFilter } from './kalman.js';
import type { AdmissionPolicy, AmShareController, ControllerStep } from './types.js';

export interface MarpSettings {
  readonly delayS: number;
  readonly low: number;
  readonly high: number;
  readonly min: number;
  readonly max: number;
  readonly start: number;
  readonly processNoise: number;
  readonly measurementNoise: number;
}

export const DEFAULT_MARP_SETTINGS: MarpSettings = {
  delayS: 10,
  low: 0.9,
  high: 0.95,
  min: 0.05,
  max: 1,
  start: 0.1,
  processNoise: 0.001,
  measurementNoise: 0.01,
};

/** One step of the controller's rule: MARP after reading (filtered) utilisation u. */
export function nextMarp(current: number, utilisation: number, settings: MarpSettings): number {
  let next = current;
  if (utilisation < settings.low) next += Math.sqrt(settings.low - utilisation);
  else if (utilisation > settings.high) next -= Math.sqrt(utilisation - settings.high);
  return Math.min(settings.max, Math.max(settings.min, next));
}

class MarpController implements AmShareController {
  readonly name = 'marp-feedback';
  readonly intervalMs: number;
  private share: number;
  private readonly filter: ScalarKalmanFilter;

  constructor(private readonly settings: MarpSettings) {
    this.intervalMs = settings.delayS * 1000;
    this.share = settings.start;
    this.filter = new ScalarKalmanFilter(settings.processNoise, settings.measurementNoise);
  }

  step(view: ClusterView): ControllerStep {
    const measured = memoryUtilisation(view);
    const filtered = this.filter.update(measured);
    const oldShare = this.share;
    this.share = nextMarp(oldShare, filtered, this.settings);
    return { measured, filtered, oldShare, newShare: this.share };
  }

  settled(view: ClusterView): boolean {
    // With the cluster frozen the measurement stays put and the filtered value converges on it;
    // until it has, it may still cross a threshold on the way.
    const measured = memoryUtilisation(view);
    const filtered = this.filter.value;
    if (!(Math.abs(filtered - measured) <= 1e-9)) return false;
    return nextMarp(this.share, filtered, this.settings) === this.share;
  }
}

export function marpFeedback(settings: MarpSettings): AdmissionPolicy {
  const changed = (Object.keys(settings) as (keyof MarpSettings)[]).filter((k) => settings[k] !== DEFAULT_MARP_SETTINGS[k]);
  return {
    spec: changed.length === 0 ? 'marp-feedback' : `marp-feedback:${changed.map((k) => `${MARP_KEYS[k]}=${settings[k]}`).join(',')}`,
    description: `MARP self-balancing: every ${settings.delayS} s, raise the AM limit while memory use is under ${settings.low}, lower it over ${settings.high}`,
    parameters: { ...settings },
    watchesFreeResources: false,
    admitsOn: 'events',
    amLimit: { kind: 'share', share: settings.start },
    decide: () => 'admit',
    createController: () => new MarpController(settings),
  };
}

/** The spec's name for each setting. */
export const MARP_KEYS: Readonly<Record<keyof MarpSettings, string>> = {
  delayS: 'delay',
  low: 'low',
  high: 'high',
  min: 'min',
  max: 'max',
  start: 'start',
  processNoise: 'q',
  measurementNoise: 'r',
};
