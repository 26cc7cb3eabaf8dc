// `lookahead[:horizon=H,step=S,levels=N,start=P,seed=K,family=reserve|am-share,reading=W]`: a
// controller that looks ahead (none of the admission papers has one). Every `step` seconds of
// simulated time it forecasts the next `horizon` seconds under each of its `levels` candidate
// settings, holding the candidate from now to the horizon, and applies the best:
//   1. the least time in the system up to now + H, summed over the apps submitted by then (an
//      unfinished app counts until the horizon): mean turnaround, censored at the horizon;
//   2. then the most apps ended by now + H;
//   3. then the setting it already has, else the lowest candidate.
// Counting apps ended first would favour whatever finishes the admitted apps soonest (few AMs)
// and ignore the ones it keeps waiting; time in the system charges waiting and running alike.
// A forecast is the run replayed from its start (LookaheadHost): the apps submitted so far, this
// controller's own past settings at its past steps, then the candidate. It never reads the trace
// beyond now: the apps after now are drawn, seeded by `seed` and the step's number, as a Poisson
// stream at the rate observed so far (apps submitted over the time since the run began), each a
// copy of an app submitted so far picked uniformly. Every candidate of one step sees the same
// draw, so they differ only by the setting.
// Families: `reserve` (default), AutoAdmin's reservation R kept away from AMs (the `am-cap`
// reading of reserve:R, or `reading=free`), candidates R = i/N of the cluster, i = 0..N-1, in
// the resource the calculator schedules by; `am-share`, every queue's AM limit, as MARP moves it,
// candidates (i+1)/N. Defaults: H = 120 s, S = 5 s, N = 16, start 0.5 of the cluster, seed 1,
// chosen on the terasort batch's Perf Score study (docs/model.md 11.8, with the figures).
// On AutoAdmin's terasort batch (makespan 110-340 s, a job 35 s or more from its submission)
// a horizon must outlast the jobs a setting admits now: at 30 s every candidate forecast the
// same apps ending, as the jobs that end within it were admitted before; 60-180 s score alike.

import type { AppSpec } from '../../model/workload.js';
import { createRandom } from '../../sim/random.js';
import type { Random } from '../../sim/random.js';
import type { ClusterView } from './cluster-view.js';
import { DEFAULT_RESERVATION_READING, roomAfterAm } from './reservation-reading.js';
import type { ReservationReading } from './reservation-reading.js';
import type {
  AdmissionCandidate,
  AdmissionDecision,
  AdmissionPolicy,
  AmShareController,
  ControllerStep,
  ForecastOutcome,
  LookaheadHost,
} from './types.js';

export type LookaheadFamily = 'reserve' | 'am-share';
export const LOOKAHEAD_FAMILIES: readonly LookaheadFamily[] = ['reserve', 'am-share'];

export interface LookaheadSettings {
  readonly horizonS: number;
  readonly stepS: number;
  readonly levels: number;
  readonly start: number;
  readonly seed: number;
}

export const DEFAULT_LOOKAHEAD_SETTINGS: LookaheadSettings = { horizonS: 120, stepS: 5, levels: 16, start: 0.5, seed: 1 };

/** The spec's name for each setting. */
export const LOOKAHEAD_KEYS: Readonly<Record<keyof LookaheadSettings, string>> = {
  horizonS: 'horizon',
  stepS: 'step',
  levels: 'levels',
  start: 'start',
  seed: 'seed',
};

/** The candidate settings, as shares of the cluster (reserve) or AM limits (am-share). */
export function lookaheadCandidates(family: LookaheadFamily, levels: number): number[] {
  return Array.from({ length: levels }, (_, i) => (family === 'reserve' ? i : i + 1) / levels);
}

/**
 * Apps assumed to arrive in (nowMs, untilMs): a Poisson stream at the rate observed so far,
 * `submitted.length` apps over the `nowMs` since the run began, each a copy of one of them
 * picked uniformly, submitted at a whole ms after now.
 */
export function drawArrivals(submitted: readonly AppSpec[], nowMs: number, untilMs: number, random: Random): AppSpec[] {
  if (submitted.length === 0 || !(nowMs > 0)) return [];
  const meanGapMs = nowMs / submitted.length;
  const drawn: AppSpec[] = [];
  let atMs = nowMs;
  for (;;) {
    atMs += -Math.log(1 - random.next()) * meanGapMs;
    const submitMs = Math.max(Math.ceil(atMs), nowMs + 1);
    if (submitMs >= untilMs) return drawn;
    const model = submitted[random.nextInt(submitted.length)]!;
    drawn.push({ ...model, id: `${model.id}~lookahead-${drawn.length + 1}`, submitMs });
  }
}

/** The forecast's score: apps ended by the horizon, then their summed time in the system (ms). */
export interface ForecastScore {
  readonly ended: number;
  readonly timeInSystemMs: number;
}

export function scoreForecast(outcome: ForecastOutcome, untilMs: number): ForecastScore {
  let ended = 0;
  let timeInSystemMs = 0;
  for (let i = 0; i < outcome.submitMs.length; i++) {
    const submitMs = outcome.submitMs[i]!;
    if (submitMs >= untilMs) continue;
    const endMs = outcome.endMs[i] ?? null;
    if (endMs !== null) ended++;
    timeInSystemMs += (endMs ?? untilMs) - submitMs;
  }
  return { ended, timeInSystemMs };
}

function better(a: ForecastScore, b: ForecastScore): boolean {
  return a.timeInSystemMs < b.timeInSystemMs || (a.timeInSystemMs === b.timeInSystemMs && a.ended > b.ended);
}

/** One step's setting: at `timeMs` the controller set `share`. */
export interface PastStep {
  readonly timeMs: number;
  readonly share: number;
}

/** The two families' rules, shared by the controller and the forecasts' scripted copies of it. */
class Family {
  constructor(
    readonly family: LookaheadFamily,
    readonly reading: ReservationReading,
    readonly candidates: readonly number[],
  ) {}

  decide(share: number, candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision {
    if (this.family === 'am-share') return 'admit';
    const room = roomAfterAm(view, candidate.amResource, this.reading);
    const dominant = view.calculator === 'dominant';
    const left = dominant ? room.vcores : room.memoryMb;
    return left >= share * (dominant ? view.capacity.vcores : view.capacity.memoryMb) ? 'admit' : 'stop';
  }

  /** Nothing waits for a looser setting, or none is looser: further steps change nothing that matters. */
  settled(share: number, view: ClusterView): boolean {
    if (view.waitingApps + view.pendingApps === 0) return true;
    return this.family === 'reserve' ? share <= this.candidates[0]! : share >= this.candidates[this.candidates.length - 1]!;
  }
}

/** In a forecast: the controller's past settings at its past steps, then the candidate from `fromMs` on. */
class ScriptedController implements AmShareController {
  readonly name = 'lookahead';
  readonly controls: 'am-limit' | 'admission';
  private share: number;
  private next = 0;

  constructor(
    readonly intervalMs: number,
    private readonly rules: Family,
    start: number,
    private readonly past: readonly PastStep[],
    private readonly fromMs: number,
    private readonly candidate: number,
  ) {
    this.controls = rules.family === 'reserve' ? 'admission' : 'am-limit';
    this.share = start;
  }

  step(_view: ClusterView, nowMs: number): ControllerStep {
    const oldShare = this.share;
    if (nowMs >= this.fromMs) this.share = this.candidate;
    else {
      // The setting in force at nowMs: the last one set at or before it.
      while (this.next < this.past.length && this.past[this.next]!.timeMs <= nowMs) this.share = this.past[this.next++]!.share;
    }
    return { measured: 0, filtered: 0, oldShare, newShare: this.share };
  }

  decide(candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision {
    return this.rules.decide(this.share, candidate, view);
  }

  settled(view: ClusterView): boolean {
    return this.rules.settled(this.share, view);
  }
}

class LookaheadController implements AmShareController {
  readonly name = 'lookahead';
  readonly intervalMs: number;
  readonly controls: 'am-limit' | 'admission';
  private share: number;
  private readonly past: PastStep[] = [];
  private steps = 0;

  constructor(
    private readonly settings: LookaheadSettings,
    private readonly rules: Family,
    private readonly policyOf: (controller: () => AmShareController) => AdmissionPolicy,
  ) {
    this.intervalMs = Math.round(settings.stepS * 1000);
    this.controls = rules.family === 'reserve' ? 'admission' : 'am-limit';
    this.share = settings.start;
  }

  step(_view: ClusterView, nowMs: number, lookahead?: LookaheadHost): ControllerStep {
    if (lookahead === undefined) throw new Error('the lookahead controller needs the run\'s forecasts (LookaheadHost)');
    const oldShare = this.share;
    const stepNumber = this.steps++;
    const submitted = lookahead.submittedApps();
    const untilMs = nowMs + Math.round(this.settings.horizonS * 1000);
    const random = createRandom((Math.imul(this.settings.seed, 0x9e3779b1) + stepNumber) >>> 0);
    const futureApps = drawArrivals(submitted, nowMs, untilMs, random);
    const past = this.past.slice();
    let best = oldShare;
    let bestScore: ForecastScore | null = null;
    let keptScore: ForecastScore | null = null;
    // The setting it has first, so that a tie keeps it; then the candidates, lowest first.
    const tried = [oldShare, ...this.rules.candidates.filter((c) => c !== oldShare)];
    for (const candidate of tried) {
      const admission = this.policyOf(
        () => new ScriptedController(this.intervalMs, this.rules, this.settings.start, past, nowMs, candidate),
      );
      const score = scoreForecast(lookahead.forecast({ admission, futureApps, untilMs }), untilMs);
      if (keptScore === null) keptScore = score;
      if (bestScore === null || better(score, bestScore)) {
        bestScore = score;
        best = candidate;
      }
    }
    this.share = best;
    this.past.push({ timeMs: nowMs, share: best });
    return { measured: bestScore?.ended ?? 0, filtered: keptScore?.ended ?? 0, oldShare, newShare: best };
  }

  decide(candidate: AdmissionCandidate, view: ClusterView): AdmissionDecision {
    return this.rules.decide(this.share, candidate, view);
  }

  settled(view: ClusterView): boolean {
    return this.rules.settled(this.share, view);
  }
}

/** The policy as it runs (its controller looks ahead) and as its forecasts run it (scripted). */
function shapes(settings: LookaheadSettings, family: LookaheadFamily, reading: ReservationReading) {
  const rules = new Family(family, reading, lookaheadCandidates(family, settings.levels));
  const changed = (Object.keys(settings) as (keyof LookaheadSettings)[])
    .filter((k) => settings[k] !== DEFAULT_LOOKAHEAD_SETTINGS[k])
    .map((k) => `${LOOKAHEAD_KEYS[k]}=${settings[k]}`);
  if (family !== 'reserve') changed.push(`family=${family}`);
  if (reading !== DEFAULT_RESERVATION_READING) changed.push(`reading=${reading}`);
  const spec = changed.length === 0 ? 'lookahead' : `lookahead:${changed.join(',')}`;
  const what = family === 'reserve' ? 'the reservation kept away from AMs' : "every queue's AM limit";
  // One policy shape for the run and for its forecasts; only the controller differs.
  const policyOf = (createController: () => AmShareController): AdmissionPolicy => ({
    spec,
    description: `look-ahead: every ${settings.stepS} s, set ${what} to the best of ${settings.levels} levels over a ${settings.horizonS} s forecast`,
    parameters: { ...settings, family, reading },
    watchesFreeResources: false,
    // The reservation is AutoAdmin's, on AutoAdmin's machinery; the AM limit is MARP's.
    admitsOn: family === 'reserve' ? 'node-updates' : 'events',
    amLimit: family === 'reserve' ? { kind: 'off' } : { kind: 'share', share: settings.start },
    decide: (candidate, view) => rules.decide(settings.start, candidate, view),
    createController,
  });
  return { rules, policyOf };
}

export function lookahead(
  settings: LookaheadSettings,
  family: LookaheadFamily = 'reserve',
  reading: ReservationReading = DEFAULT_RESERVATION_READING,
): AdmissionPolicy {
  const { rules, policyOf } = shapes(settings, family, reading);
  return policyOf(() => new LookaheadController(settings, rules, policyOf));
}

/**
 * The policy a forecast runs: the settings `past` set at their steps (a setting holds until the
 * next), then `candidate` from the step at `fromMs` on. Its controller never forecasts.
 */
export function scriptedLookahead(
  settings: LookaheadSettings,
  family: LookaheadFamily,
  reading: ReservationReading,
  past: readonly PastStep[],
  fromMs: number,
  candidate: number,
): AdmissionPolicy {
  const { rules, policyOf } = shapes(settings, family, reading);
  return policyOf(() => new ScriptedController(Math.round(settings.stepS * 1000), rules, settings.start, past, fromMs, candidate));
}
