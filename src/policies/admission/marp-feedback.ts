// `marp-feedback[:delay=S,low=L,high=H,min=A,max=B,start=P,q=Q,r=R,scale=M]`: the self-balancing
// controller of Zhang, Křikava, Rouvoy and Seinturier ("Self-Balancing Job Parallelism and
// Throughput in Hadoop", DAIS 2016). A monitor-analyse-plan-execute loop every `delay` seconds
// of simulated time reads the cluster's memory utilisation u (allocated over total memory),
// smooths it with a one-dimensional Kalman filter, and moves MARP (maximum-am-resource-percent)
// by the square root of u's distance to a threshold, the distance read in memory:
//   D = (low - u) x M (or (u - high) x M), M the cluster's memory in MB
//   step = sqrt(D / scale) x scale / M, a share of the cluster
//   u < low and apps pending:  MARP += step  (memory idles while jobs wait: let more run at once)
//   u > high:                  MARP -= step  (the cluster is saturated: let fewer jobs hold AMs)
// then clamps it to [min, max]. The paper's formula is garbled in print; it names the distance
// in memory (T - M_U over the compute memory). The square root is taken of D counted in `scale`
// MB (default 1024, one of the paper's 1 GB containers): at u = 0.05 on the 150-GB MARP cluster
// the first step is 0.075, where sqrt(low - u) with u a fraction (scale = M) gives 0.92 and
// throws MARP from 0.1 to 1 at once. The paper's symptom is idle memory *with pending jobs*, so
// MARP rises only while an app waits for its AM. A change applies as `yarn rmadmin
// -refreshQueues` would: every queue's AM limit is recomputed and holds from the next
// allocation; running AMs stay.
//
// Start-up: until the first task container is allocated, memory holds only AMs starting up and
// says nothing about how busy the jobs will keep the cluster, so steps before then leave MARP
// alone and do not seed the filter; its first reading is the first one after.
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
  /** The memory unit the distance's square root is taken in, MB. */
  readonly scaleMb: number;
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
  scaleMb: 1024,
};

/** What the rule reads besides the filtered utilisation. */
export interface MarpReading {
  /** The cluster's memory, MB. */
  readonly capacityMemoryMb: number;
  /** Apps waiting for their AM (admitted or held in front of the scheduler). */
  readonly appsPending: boolean;
}

/** The step for a distance `fraction` of the cluster's memory: sqrt(D / scale) x scale / M. */
export function marpStep(fraction: number, capacityMemoryMb: number, scaleMb: number): number {
  if (!(capacityMemoryMb > 0)) return 0;
  const distanceMb = fraction * capacityMemoryMb;
  return (Math.sqrt(distanceMb / scaleMb) * scaleMb) / capacityMemoryMb;
}

/** One step of the controller's rule: MARP after reading (filtered) utilisation u. */
export function nextMarp(current: number, utilisation: number, settings: MarpSettings, reading: MarpReading): number {
  let next = current;
  if (utilisation < settings.low) {
    if (reading.appsPending) next += marpStep(settings.low - utilisation, reading.capacityMemoryMb, settings.scaleMb);
  } else if (utilisation > settings.high) {
    next -= marpStep(utilisation - settings.high, reading.capacityMemoryMb, settings.scaleMb);
  }
  return Math.min(settings.max, Math.max(settings.min, next));
}

function readingOf(view: ClusterView): MarpReading {
  return { capacityMemoryMb: view.capacity.memoryMb, appsPending: view.pendingApps + view.waitingApps > 0 };
}

class MarpController implements AmShareController {
  readonly name = 'marp-feedback';
  readonly controls = 'am-limit';
  readonly intervalMs: number;
  private share: number;
  private readonly filter: ScalarKalmanFilter;
  /** A task container has been allocated: the cluster is past its start-up. */
  private started = false;

  constructor(private readonly settings: MarpSettings) {
    this.intervalMs = settings.delayS * 1000;
    this.share = settings.start;
    this.filter = new ScalarKalmanFilter(settings.processNoise, settings.measurementNoise);
  }

  step(view: ClusterView): ControllerStep {
    const measured = memoryUtilisation(view);
    const oldShare = this.share;
    if (!this.started && view.taskContainers === 0) return { measured, filtered: measured, oldShare, newShare: oldShare };
    this.started = true;
    const filtered = this.filter.update(measured);
    this.share = nextMarp(oldShare, filtered, this.settings, readingOf(view));
    return { measured, filtered, oldShare, newShare: this.share };
  }

  settled(view: ClusterView): boolean {
    // Still starting with nothing left to happen: no task will ever run, and steps change nothing.
    if (!this.started && view.taskContainers === 0) return true;
    // With the cluster frozen the measurement stays put and the filtered value converges on it;
    // until it has, it may still cross a threshold on the way.
    const measured = memoryUtilisation(view);
    const filtered = this.filter.value;
    if (!this.started || !(Math.abs(filtered - measured) <= 1e-9)) return false;
    return nextMarp(this.share, filtered, this.settings, readingOf(view)) === this.share;
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
  scaleMb: 'scale',
};
