// Hand-computed traces for tasks sharing their node's cores (docs/model.md, "Contention"). One
// node of 8 GB heartbeating at 0, 1000, 2000 ... ms, under the CapacityScheduler's default
// calculator (it places by memory alone, so a node takes more 1-vcore tasks than it has cores,
// one container per heartbeat), apps from a log (a task's work starts when its container is
// allocated; an ask has the node heartbeat at once), AMs registering 1000 ms after their
// container. Unless a test says otherwise AMs use no CPU, so only the tasks compete.

import { describe, expect, it } from 'vitest';
import { replay } from '../../src/replay/engine.js';
import type { ReplayOptions } from '../../src/replay/replay-input.js';
import { contentionNote } from '../../src/replay/node-contention.js';
import type { ContentionSettings } from '../../src/replay/node-contention.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { parseCluster } from '../../src/model/cluster.js';
import type { Cluster } from '../../src/model/cluster.js';
import type { AppSpec } from '../../src/model/workload.js';
import { app, stage } from '../helpers/workloads.js';

const NO_AM_CPU: ContentionSettings = { amStartupCores: 0, amWorkCores: 0 };

/**
 * One node of 8 GB with `vcores` advertised vcores, and `diskMbPerS` of disk bandwidth if given;
 * the default calculator places by memory alone.
 */
function node(vcores: number, hardwareCores?: number, diskMbPerS?: number): Cluster {
  return parseCluster({
    name: 't',
    nodeGroups: [
      {
        name: 'n',
        count: 1,
        memoryMb: 8192,
        vcores,
        ...(hardwareCores === undefined
          ? {}
          : { hardware: { memoryMb: 8192, cores: hardwareCores, ...(diskMbPerS === undefined ? {} : { diskMbPerS }) } }),
      },
    ],
  });
}

function run(cluster: Cluster, apps: AppSpec[], options: ReplayOptions) {
  return replay({
    workload: { name: 't', apps },
    cluster,
    admission: parseAdmissionPolicy('none'),
    options: { heartbeatPhasesMs: [0], recordContainers: true, ...options },
  });
}

/** [start, end] of each `kind` task container, by start (a waiting task's start is its allocation). */
function taskSpans(result: ReturnType<typeof run>, kind = 'map'): [number, number][] {
  const c = result.containers!;
  const spans: [number, number][] = [];
  for (let i = 0; i < c.kind.length; i++) if (c.kind[i] === kind) spans.push([c.startMs[i]!, c.endMs[i]!]);
  return spans.sort((x, y) => x[0] - y[0]);
}

/**
 * A 10 s setup task, then 4 single-core maps of 10 s that wait for it (asked at once, placed one
 * a heartbeat while it runs, all starting together when it ends).
 */
function setupThenFourMaps(): AppSpec {
  return setupThenMaps(4);
}

/** As setupThenFourMaps, with `maps` maps that each read and write `diskMbPerS` at full speed. */
function setupThenMaps(maps: number, diskMbPerS?: number): AppSpec {
  const map = stage('map', maps, 10_000, undefined, { startAfterFraction: 0, waitsForPreviousStage: true, ...(diskMbPerS === undefined ? {} : { diskMbPerS }) });
  return app('a', 0, [stage('setup', 1, 10_000), map], { observed: true });
}

describe('tasks sharing a node\'s cores', () => {
  it('runs 4 single-core tasks of 10 s on a 2-core node in 20 s', () => {
    // 0: the AM; 1000: it registers and asks for the setup task and the 4 maps; the setup task is
    // placed at 1000 and runs alone (1 core of 2) 1000-11000; the maps are placed at 2000-5000
    // and wait for it. At 11000 four cores are asked for of 2: each map runs at half speed, so
    // its 10 s of work takes 20 s: 11000-31000.
    const result = run(node(2), [setupThenFourMaps()], { contention: NO_AM_CPU });
    expect(taskSpans(result, 'setup')).toEqual([[1000, 11_000]]);
    expect(taskSpans(result).map(([, end]) => end)).toEqual([31_000, 31_000, 31_000, 31_000]);
    expect(result.apps[0]!.finishMs).toBe(31_000);
    expect(result.contention).toEqual({ tasksTimed: 5, tasksStretched: 4, meanStretch: 2, maxStretch: 2, nodesOverloaded: 1 });
    expect(contentionNote(result.contention!)).toBe('Tasks stretched by contention: 4 of 5, mean x2.00, max x2.00 on 1 nodes.');
  });

  it('runs the same tasks at full speed when contention is off', () => {
    const result = run(node(2), [setupThenFourMaps()], {});
    expect(taskSpans(result).map(([, end]) => end)).toEqual([21_000, 21_000, 21_000, 21_000]);
    expect(result.contention).toBeUndefined();
  });

  it('re-times every task on the node when one starts and when one ends', () => {
    // Two cores. A (submitted 0): AM at 0, its 10 s map from 1000. B (submitted 1000, after the
    // node's heartbeat at 1000): AM at 2000, its 10 s map from 3000. C (submitted 4000): AM at
    // 4000, its 4.5 s map from 5000. Up to 5000 at most 2 tasks run: full speed, A has 6000 ms of
    // work left and B 8000. From 5000 three tasks share 2 cores (2/3 speed): C's 4500 take 6750,
    // C ends at 11750; A and B have each done 4500 more, A has 1500 left and B 3500, now at full
    // speed: A ends at 13250, B at 15250. (Without contention: C 9500, A 11000, B 13000.) The
    // ends queued at 14000 and 17000 for A and B (re-timed at 5000) are left behind at 11750.
    const a = app('A', 0, [stage('map', 1, 10_000)], { observed: true });
    const b = app('B', 1000, [stage('map', 1, 10_000)], { observed: true });
    const c = app('C', 4000, [stage('map', 1, 4_500)], { observed: true });
    const result = run(node(2), [a, b, c], { contention: NO_AM_CPU });
    expect(taskSpans(result)).toEqual([
      [1000, 13_250],
      [3000, 15_250],
      [5000, 11_750],
    ]);
    expect(result.apps.map((r) => r.finishMs)).toEqual([13_250, 15_250, 11_750]);
    expect(result.summary.tasksCompleted).toBe(3);
    expect(result.contention!.maxStretch).toBeCloseTo(1.5, 10);
    expect(run(node(2), [a, b, c], {}).apps.map((r) => r.finishMs)).toEqual([11_000, 13_000, 9500]);
  });

  it('counts the CPU an AM uses while it starts and while it works', () => {
    // One core. 0: the AM, using 1 core while it starts; 1000: it registers (now 0.5 core) and its
    // one map of 10 s starts: 1.5 cores asked for of 1, the map runs at 2/3 speed and ends 15 s
    // later, at 16000.
    const job = app('a', 0, [stage('map', 1, 10_000)], { observed: true });
    const result = run(node(1), [job], { contention: { amStartupCores: 1, amWorkCores: 0.5 } });
    expect(taskSpans(result)).toEqual([[1000, 16_000]]);
  });

  it("counts the node's hardware cores, not its advertised vcores", () => {
    // Advertised 2 vcores, 4 physical cores: the 4 maps of the first test run at full speed.
    const result = run(node(2, 4), [setupThenFourMaps()], { contention: NO_AM_CPU });
    expect(taskSpans(result).map(([, end]) => end)).toEqual([21_000, 21_000, 21_000, 21_000]);
    expect(result.contention!.tasksStretched).toBe(0);
  });

  it('changes nothing while no node is overloaded, tasks launched on their AM heartbeat included', () => {
    // Modelled apps (a task starts on its AM's heartbeat after the allocation, later than it) on
    // 8 cores that never run more than 6 tasks: the same containers, times and outcomes.
    const apps = [
      app('A', 0, [stage('map', 3, 7000), stage('reduce', 1, 3000)]),
      app('B', 500, [stage('map', 2, 7000)]),
      app('C', 2500, [stage('map', 2, 4000)]),
    ];
    const cluster = node(8);
    const off = run(cluster, apps, { heartbeatPhasesMs: [300] });
    const { contention, ...on } = run(cluster, apps, { heartbeatPhasesMs: [300], contention: { amStartupCores: 1, amWorkCores: 0.25 } });
    expect(contention!.tasksStretched).toBe(0);
    expect({ ...on, summary: { ...on.summary, events: 0 } }).toEqual({ ...off, summary: { ...off.summary, events: 0 } });
  });
});

describe("tasks sharing a node's disk bandwidth", () => {
  it('runs 2 single-core tasks of 10 s asking 60 MB/s each on 4 cores and 60 MB/s of disk in 20 s', () => {
    // As the first test: the setup task (no disk I/O) runs 1000-11000, the 2 maps start at 11000.
    // 2 cores of 4 asked for: CPU rate 1; 120 MB/s of disk asked for of 60: each map runs at half
    // speed, 11000-31000.
    const result = run(node(4, 4, 60), [setupThenMaps(2, 60)], { contention: NO_AM_CPU });
    expect(taskSpans(result).map(([, end]) => end)).toEqual([31_000, 31_000]);
    expect(result.contention).toEqual({
      tasksTimed: 3,
      tasksStretched: 2,
      meanStretch: 2,
      maxStretch: 2,
      nodesOverloaded: 0,
      tasksStretchedByCpu: 0,
      tasksStretchedByDisk: 2,
      nodesDiskOverloaded: 1,
    });
    expect(contentionNote(result.contention!)).toBe(
      "Tasks stretched by contention: 2 of 3, mean x2.00, max x2.00; slowed by their nodes' cores: 0 (cores overloaded on 0 nodes), by their disks: 2 (disk overloaded on 1 nodes).",
    );
    // The same maps without disk bandwidth on the node: full speed, 11000-21000.
    expect(taskSpans(run(node(4, 4), [setupThenMaps(2, 60)], { contention: NO_AM_CPU })).map(([, end]) => end)).toEqual([21_000, 21_000]);
  });

  it('does not slow a task without disk demand on a node whose disk is overloaded', () => {
    // B (submitted 0, after A) has one 20 s task and no disk I/O. At most 4 tasks on 4 cores: CPU
    // rate 1 throughout, so it runs its 20 s while A's maps share the disk from 11000 to 31000.
    const b = app('b', 0, [stage('cpu', 1, 20_000)], { observed: true });
    const result = run(node(4, 4, 60), [setupThenMaps(2, 60), b], { contention: NO_AM_CPU });
    const [span] = taskSpans(result, 'cpu');
    expect(span![1] - span![0]).toBe(20_000);
    expect(span![1]).toBeGreaterThan(11_000);
    expect(taskSpans(result).map(([, end]) => end)).toEqual([31_000, 31_000]);
  });

  it('runs a task at the tighter of its CPU and disk rates', () => {
    // 4 maps of 10 s on 2 cores: CPU rate 2/4. At 20 MB/s each, 80 MB/s of 60: disk rate 3/4; CPU
    // is tighter, the maps take 20 s (11000-31000). At 60 MB/s each, 240 of 60: disk rate 1/4 is
    // tighter, they take 40 s (11000-51000).
    const cpuBound = run(node(2, 2, 60), [setupThenMaps(4, 20)], { contention: NO_AM_CPU });
    expect(taskSpans(cpuBound).map(([, end]) => end)).toEqual([31_000, 31_000, 31_000, 31_000]);
    expect(cpuBound.contention).toMatchObject({ tasksStretchedByCpu: 4, tasksStretchedByDisk: 0, nodesOverloaded: 1, nodesDiskOverloaded: 1 });
    const diskBound = run(node(2, 2, 60), [setupThenMaps(4, 60)], { contention: NO_AM_CPU });
    expect(taskSpans(diskBound).map(([, end]) => end)).toEqual([51_000, 51_000, 51_000, 51_000]);
    expect(diskBound.contention).toMatchObject({ tasksStretchedByCpu: 0, tasksStretchedByDisk: 4, maxStretch: 4 });
  });

  it("scales a task's disk demand by its node's speed factor", () => {
    // Speed factor 2: each map's 10 s take 5 s and it moves the same bytes, so asks 2 x 30 MB/s.
    // The setup task runs 1000-6000; 2 maps ask for 120 MB/s of 60: half speed, 6000-16000.
    const fast = parseCluster({
      name: 't',
      nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 4, speedFactor: 2, hardware: { memoryMb: 8192, cores: 4, diskMbPerS: 60 } }],
    });
    const result = run(fast, [setupThenMaps(2, 30)], { contention: NO_AM_CPU });
    expect(taskSpans(result).map(([, end]) => end)).toEqual([16_000, 16_000]);
  });
});
