// The look-ahead controller (lookahead.ts) and its forecasts (replay/lookahead-fork.ts): the
// forecast's parts by hand, a one-node case whose best reservation is worked out below, and on
// AutoAdmin's terasort batch: the fork reproduces the run, the controller never reads arrivals
// after now, and it repeats itself.

import { describe, expect, it } from 'vitest';
import { replay } from '../../../src/replay/engine.js';
import { ReplayFork } from '../../../src/replay/lookahead-fork.js';
import {
  DEFAULT_LOOKAHEAD_SETTINGS,
  drawArrivals,
  parseAdmissionPolicy,
  scoreForecast,
  scriptedLookahead,
} from '../../../src/policies/admission/index.js';
import { createRandom } from '../../../src/sim/random.js';
import { terasortBatch } from '../../../src/scenarios/terasort-batch.js';
import type { AppSpec } from '../../../src/model/workload.js';
import { app, oneNodeCluster, stage } from '../../helpers/workloads.js';

describe('the forecast', () => {
  it('scores time in the system up to the horizon, an unfinished app counted to it, and apps ended', () => {
    // Horizon 100: app a 0..40 (40), b 10..unfinished (90), c 50..90 (40); d submitted at 100
    // is beyond it. 40 + 90 + 40 = 170, two ended.
    const outcome = { submitMs: [0, 10, 50, 100], endMs: [40, null, 90, null] };
    expect(scoreForecast(outcome, 100)).toEqual({ ended: 2, timeInSystemMs: 170 });
  });

  it('draws arrivals after now only, copies of the apps seen, at the rate seen, the same for one seed', () => {
    const seen = [app('a', 0, [stage('map', 1, 1000)]), app('b', 500, [stage('map', 2, 3000)])];
    // 2 apps in the 1000 ms since the run began: one every 500 ms, about 200 in 100 s.
    const drawn = drawArrivals(seen, 1000, 101_000, createRandom(7));
    expect(drawn.length).toBeGreaterThan(160);
    expect(drawn.length).toBeLessThan(240);
    for (let i = 0; i < drawn.length; i++) {
      const d = drawn[i]!;
      expect(d.submitMs).toBeGreaterThan(1000);
      expect(d.submitMs).toBeLessThan(101_000);
      if (i > 0) expect(d.submitMs).toBeGreaterThanOrEqual(drawn[i - 1]!.submitMs);
      expect(d.stages === seen[0]!.stages || d.stages === seen[1]!.stages).toBe(true);
    }
    expect(new Set(drawn.map((d) => d.id)).size).toBe(drawn.length);
    expect(drawArrivals(seen, 1000, 101_000, createRandom(7))).toEqual(drawn);
    expect(drawArrivals([], 1000, 101_000, createRandom(7))).toEqual([]);
  });
});

describe('lookahead on one node', () => {
  // One node of 4 vcores (dominant), every node heartbeat at 0, 1000, ... ms and at once when a
  // container ends; an AM registers and asks 1000 ms after its container. app0 at 0, apps 1-4
  // at 1500; each an AM of 1 vcore and one task of 1 vcore for 10 s. reserve:R admits while the
  // AMs, this one's included, hold at most 4 - R.
  // R = 1 (at most 3 AMs): app0 AM 0, task 1000-11000. 1500: app1 (2 AMs) and app2 (3)
  //   admitted, app3 waits. app1 AM 2000, task 3000-13000: the node is full. 11000: app0 ends;
  //   app2's AM, app3 admitted. app2's task 12000-22000. 13000: app1 ends; app3's AM, task
  //   14000-24000; app4 admitted, its AM when app2's task ends at 22000, task 23000-33000: 33 s.
  // R = 3 runs one app at a time, 11-12 s each: 59 s. R = 0 admits all four at 1500, and R = 2
  //   only two at once: 35 s and 37 s (the engine's figures).
  const cluster = oneNodeCluster(8192, 4, 'dominant');
  const apps = [app('app0', 0, [stage('map', 1, 10_000)]), ...[1, 2, 3, 4].map((i) => app(`app${i}`, 1500, [stage('map', 1, 10_000)]))];
  const run = (policy: string) =>
    replay({ workload: { name: 't', apps }, cluster, admission: parseAdmissionPolicy(policy), options: { heartbeatPhasesMs: [0] } });

  it('moves from R = 0 to the best static reservation, R = 1 vcore, at its first step', () => {
    const makespans = [0, 1, 2, 3].map((r) => run(`reserve:${r}`).summary.makespanMs);
    expect(makespans).toEqual([35_000, 33_000, 37_000, 59_000]);
    // Levels 4: R = 0, 1, 2, 3 vcores. At 1000 ms it has seen app0 (one app a second) and
    // forecasts copies of it arriving so; holding 4 AMs starves the tasks, 1-2 AMs the queue.
    const looked = run('lookahead:step=1,horizon=30,levels=4,start=0');
    expect(looked.controllerSteps.timeMs).toEqual([1000]);
    expect(looked.controllerSteps.newShare).toEqual([0.25]);
    const times = (r: ReturnType<typeof run>) => r.apps.map((a) => [a.admittedMs, a.amStartMs, a.finishMs]);
    expect(times(looked)).toEqual(times(run('reserve:1')));
    expect(times(looked)).toEqual([
      [0, 0, 11_000],
      [1500, 2000, 13_000],
      [1500, 11_000, 22_000],
      [11_000, 13_000, 24_000],
      [13_000, 22_000, 33_000],
    ]);
  });

  it('family=am-share: moves every AM limit from 1 to the best static one, 0.75 (3 AMs)', () => {
    // am-share:P on this node caps the AMs at P x 4 vcores: the same caps as reserve:R with
    // R = 4 - 4P, but an app is admitted at once and waits in the scheduler for its AM.
    const makespans = [0.25, 0.5, 0.75, 1].map((p) => run(`am-share:${p}`).summary.makespanMs);
    expect(makespans).toEqual([59_000, 37_000, 33_000, 34_000]);
    const looked = run('lookahead:step=1,horizon=30,levels=4,start=1,family=am-share');
    expect(looked.controllerSteps.timeMs).toEqual([1000]);
    expect(looked.controllerSteps.newShare).toEqual([0.75]);
    expect(looked.summary.makespanMs).toBe(33_000);
  });
});

describe('lookahead specs', () => {
  it('names only what differs from the defaults, and refuses what it cannot run', () => {
    expect(parseAdmissionPolicy('lookahead').spec).toBe('lookahead');
    expect(parseAdmissionPolicy('lookahead:family=am-share,step=1,horizon=30').spec).toBe('lookahead:horizon=30,step=1,family=am-share');
    expect(() => parseAdmissionPolicy('lookahead:levels=1')).toThrow(/levels/);
    expect(() => parseAdmissionPolicy('lookahead:horizon=4')).toThrow(/at least the step/);
    expect(() => parseAdmissionPolicy('lookahead:family=marp')).toThrow(/reserve, am-share/);
  });
});

describe('lookahead on the terasort batch', () => {
  // 36 jobs 1 s apart, AMs of 3 vcores and tasks of 1 (8 nodes x 8 vcores); a step every 10 s,
  // a 120 s horizon, R = i/8 of the cluster.
  const settings = { ...DEFAULT_LOOKAHEAD_SETTINGS, stepS: 10, levels: 8 };
  const parameters = { jobs: 36, submitGapS: 1, inputMb: 100, amVcores: 3, taskVcores: 1, jitter: 0.1, amStartupS: 10, diskMbPerS: 0 };
  const { workload, cluster } = terasortBatch.build(parameters, 1);
  const input = (apps: readonly AppSpec[]) => ({
    workload: { name: 'terasort', apps: [...apps] },
    cluster,
    admission: parseAdmissionPolicy('lookahead:step=10,levels=8'),
    options: { seed: 1 },
  });
  const real = replay(input(workload.apps));
  const steps = (r: typeof real) => r.controllerSteps.timeMs.map((t, i) => [t, r.controllerSteps.newShare[i]!]);

  it('a forecast that repeats its settings reproduces the run', () => {
    // The settings it chose before 30 s (a change at its first step, 10 s), and none between 30 s
    // and 60 s, so the run up to 60 s is what the settings in force at 30 s give.
    const chosen = steps(real);
    const past = chosen.filter(([t]) => t! < 30_000).map(([timeMs, share]) => ({ timeMs: timeMs!, share: share! }));
    expect(past[0]!.timeMs).toBe(10_000);
    expect(chosen.filter(([t]) => t! >= 30_000 && t! < 60_000)).toEqual([]);
    // Forked at the step at 30 s: apps 0-29 submitted; given the real apps 30-35 as the future
    // and the share in force as the candidate, up to 60 s it is the run.
    const nowMs = 30_000;
    const fork = new ReplayFork(input(workload.apps), () => 30, () => nowMs, replay);
    const admission = scriptedLookahead(settings, 'reserve', 'am-cap', past, nowMs, past.at(-1)!.share);
    const forecast = fork.forecast({ admission, futureApps: workload.apps.slice(30), untilMs: 60_000 });
    const before = (ms: number | null) => (ms !== null && ms < 60_000 ? ms : null);
    const ended = forecast.endMs.map(before);
    expect(ended).toEqual(real.apps.map((a) => before(a.finishMs)));
    expect(ended.filter((ms) => ms !== null).length).toBeGreaterThan(10);
  });

  it('does not peek: a batch whose later half differs gets the same settings until it differs', () => {
    // The same first 24 jobs (submitted 0-23 s); jobs 24-35 (24-35 s) read 300 MB, not 100.
    // A step at 24 s would still come before the job submitted then.
    const other = terasortBatch.build({ ...parameters, inputMb: 300 }, 1).workload.apps;
    const mixed = replay(input([...workload.apps.slice(0, 24), ...other.slice(24)]));
    const until = (r: typeof real, ms: number) => steps(r).filter(([t]) => t! <= ms);
    expect(until(real, 24_000).length).toBeGreaterThan(0);
    expect(until(mixed, 24_000)).toEqual(until(real, 24_000));
    // After, the later jobs are seen, and the settings part.
    expect(steps(mixed)).not.toEqual(steps(real));
  });

  it('repeats itself: the same seed gives the same settings and the same run', () => {
    const again = replay(input(workload.apps));
    expect(steps(again)).toEqual(steps(real));
    expect(again.apps.map((a) => a.finishMs)).toEqual(real.apps.map((a) => a.finishMs));
  });
});
