import { describe, expect, it } from 'vitest';
import { deriveSwimWorkload, knownSwimSourceNodes, swimJobShape } from '../../../src/ingest/swim/derive.js';
import { parseCluster } from '../../../src/model/cluster.js';
import type { Stage } from '../../../src/model/workload.js';
import type { SwimJobRow } from '../../../src/store/index.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

function job(mapInputBytes: number, shuffleBytes: number, reduceOutputBytes: number, submitS = 0): SwimJobRow {
  return { jobIndex: 0, lineNumber: 1, jobId: 'job0', submitS, gapS: 0, mapInputBytes, shuffleBytes, reduceOutputBytes };
}

function durationOf(stage: Stage): number {
  if (stage.durations.kind !== 'uniform') throw new Error('SWIM stages have one duration');
  return stage.durations.durationMs;
}

describe('swimJobShape (SWIM GenerateReplayScript rules)', () => {
  it('runs one map per 64 MB block, rounded up, and at least one reduce', () => {
    // 100 MiB -> 2 blocks. Shuffle and output 0 -> raised to 1024 B each; 2048 / 64 MiB rounds to 0 -> 1.
    expect(swimJobShape(job(100 * MIB, 0, 0), 600, 600, 64, 64)).toEqual({
      inputBytes: 100 * MIB,
      shuffleBytes: 1024,
      outputBytes: 1024,
      maps: 2,
      reduces: 1,
    });
  });

  it('raises input below one block to one block', () => {
    expect(swimJobShape(job(5, 0, 0), 600, 600, 64, 64).maps).toBe(1);
    expect(swimJobShape(job(5, 0, 0), 600, 600, 64, 64).inputBytes).toBe(64 * MIB);
  });

  it('scales bytes by target/source nodes with integer truncation', () => {
    // 1 GiB x 60 / 600 = 107374182.4 -> 107374182 B -> 2 maps. 10 GiB shuffle -> 1 GiB;
    // (1 GiB + 1024 B) / 64 MiB = 16.00002 -> 16 reduces.
    const shape = swimJobShape(job(GIB, 10 * GIB, 0), 600, 60, 64, 64);
    expect(shape.inputBytes).toBe(107374182);
    expect(shape.maps).toBe(2);
    expect(shape.shuffleBytes).toBe(GIB);
    expect(shape.reduces).toBe(16);
  });

  it('rounds the reduce count half up, as Java Math.round does', () => {
    // (96 MiB - 1024 + 1024) / 64 MiB = 1.5 -> 2.
    expect(swimJobShape(job(0, 96 * MIB - 1024, 0), 600, 600, 64, 64).reduces).toBe(2);
  });

  it('turns a reduce count above the node count into nodes / 5', () => {
    // 50 reduces on 10 nodes -> 10 / 5 = 2.
    expect(swimJobShape(job(0, 50 * 64 * MIB - 1024, 0), 10, 10, 64, 64).reduces).toBe(2);
    // On fewer than 5 nodes SWIM ends up with no reduce at all: 9 / 4 nodes -> 4 / 5 = 0.
    expect(swimJobShape(job(0, 9 * 64 * MIB, 0), 4, 4, 64, 64).reduces).toBe(0);
  });
});

describe('deriveSwimWorkload', () => {
  it('builds a MapReduce app per job with throughput-model durations', () => {
    const cluster = parseCluster({
      name: 'c',
      nodeGroups: [{ name: 'n', count: 60, memoryMb: 8192, vcores: 8 }],
      taskModel: { mapMbPerS: 20, reduceMbPerS: 10, taskStartupMs: 1500, amStartupMs: 4000 },
    });
    const workload = deriveSwimWorkload('t', [job(GIB, 10 * GIB, 0, 49)], 600, cluster);
    const [app] = workload.apps;
    expect(app!.submitMs).toBe(49_000);
    expect(app!.amRequest).toEqual({ memoryMb: 1536, vcores: 1 });
    expect(app!.amStartupMs).toBe(4000);
    const [maps, reduces] = app!.stages;
    // A map reads one 64 MB block: 1500 + 64 / 20 x 1000 = 4700 ms.
    expect(maps).toMatchObject({ name: 'map', priority: 20, taskCount: 2, durations: { kind: 'uniform', durationMs: 4700 } });
    // A reduce gets (1 GiB + 1024 B) / 16 = 64.00006 MB: 1500 + 6400.006 -> 7900 ms.
    expect(reduces).toMatchObject({
      name: 'reduce',
      priority: 10,
      taskCount: 16,
      durations: { kind: 'uniform', durationMs: 7900 },
      startAfterFraction: 0.05,
      waitsForPreviousStage: true,
    });
  });

  it('keeps the recorded bytes when asked, so a smaller cluster replays the same day, not a smaller one', () => {
    // Four jobs recorded on 100 nodes, replayed on 25 (scale 25 / 100 = 1/4); 64 MB blocks and 64 MB
    // per reduce; a map takes 1500 + 64 / 20 x 1000 = 4700 ms either way. Worked out by hand:
    //   j1 input 1 GiB, shuffle 256 MiB, output 0 (raised to 1024 B):
    //     scaled:   256 MiB -> 4 maps; 64 MiB + 1024 B -> round(1.00002) = 1 reduce of 64.001 MB -> 1500 + 6400.1 = 7900 ms
    //     recorded: 1024 MiB -> 16 maps; 256 MiB + 1024 B -> 4 reduces of 64.0002 MB -> 7900 ms
    //   j2 input 100 MiB, shuffle and output 0 (1024 B each):
    //     scaled:   25 MiB, below a block -> 1 map; 2048 B -> round(0.00003) = 0 -> 1 reduce of 0.002 MB -> 1500 ms
    //     recorded: 100 MiB -> 2 maps; the same 1 reduce, 1500 ms
    //   j3 input 10 GiB, shuffle 10 GiB, output 2 GiB:
    //     scaled:   2560 MiB -> 40 maps; 3072 MiB -> 48 reduces, above the 25 nodes -> 25 / 5 = 5
    //               reduces of 614.4 MB -> 1500 + 61 440 = 62 940 ms
    //     recorded: 10 240 MiB -> 160 maps; 12 288 MiB -> 192 reduces, above 25 nodes -> 5 reduces of
    //               2457.6 MB -> 1500 + 245 760 = 247 260 ms (SWIM's cap is the cluster's, whatever the bytes)
    //   j4 input 64 MiB + 3 B, shuffle 0 (1024 B), output 1 GiB:
    //     scaled:   16 777 216.75 B truncated to 16 MiB, below a block -> 1 map; 256 MiB + 1024 B -> 4
    //               reduces of 64.0002 MB -> 7900 ms
    //     recorded: just over one block -> 2 maps; 1 GiB + 1024 B -> 16 reduces (not above 25 nodes) of
    //               64.00006 MB -> 7900 ms
    const cluster = parseCluster({
      name: 'c',
      nodeGroups: [{ name: 'n', count: 25, memoryMb: 8192, vcores: 8 }],
      taskModel: { mapMbPerS: 20, reduceMbPerS: 10, taskStartupMs: 1500, blockMb: 64, bytesPerReduceMb: 64 },
    });
    const jobs = [
      { ...job(GIB, 256 * MIB, 0, 0), jobId: 'j1' },
      { ...job(100 * MIB, 0, 0, 10), jobId: 'j2' },
      { ...job(10 * GIB, 10 * GIB, 2 * GIB, 20), jobId: 'j3' },
      { ...job(64 * MIB + 3, 0, GIB, 30), jobId: 'j4' },
    ];
    const tasks = (bytes: 'scaled' | 'recorded'): [number, number, number, number][] =>
      deriveSwimWorkload('t', jobs, 100, cluster, bytes).apps.map((app) => {
        const [maps, reduces] = app.stages as [Stage, Stage];
        return [maps.taskCount, durationOf(maps), reduces.taskCount, durationOf(reduces)];
      });
    expect(tasks('scaled')).toEqual([
      [4, 4700, 1, 7900],
      [1, 4700, 1, 1500],
      [40, 4700, 5, 62_940],
      [1, 4700, 4, 7900],
    ]);
    expect(tasks('recorded')).toEqual([
      [16, 4700, 4, 7900],
      [2, 4700, 1, 1500],
      [160, 4700, 5, 247_260],
      [2, 4700, 16, 7900],
    ]);
    // Scaled is the default, as SWIM does it.
    expect(deriveSwimWorkload('t', jobs, 100, cluster)).toEqual(deriveSwimWorkload('t', jobs, 100, cluster, 'scaled'));
  });

  it('refuses a job with more tasks, or a task longer, than a replay can hold, naming the job', () => {
    const cluster = (taskModel: Record<string, number>) =>
      parseCluster({ name: 'c', nodeGroups: [{ name: 'n', count: 20, memoryMb: 8192, vcores: 8 }], taskModel });
    const PIB = 2 ** 50;
    // 1 PiB of input in 64 MB blocks is 2^50 / 2^26 = 2^24 = 16 777 216 maps: the most a job may run.
    expect(deriveSwimWorkload('t', [job(PIB, 0, 0)], 20, cluster({})).apps[0]!.stages[0]!.taskCount).toBe(2 ** 24);
    // In 32 MB blocks the same input is 2^25 maps: refused.
    expect(() => deriveSwimWorkload('t', [job(PIB, 0, 0)], 20, cluster({ blockMb: 32 }))).toThrow(
      `trace t, job job0 (line 1) on cluster c: ${PIB} bytes of input would be 33554432 maps of 32 MB; a job may run at most 16777216 tasks`,
    );
    // Shuffle and output 1 PiB each on 20 nodes: 2^25 reduces, above 20 nodes -> 20 / 5 = 4, each
    // 2^51 / 4 B = 2^29 MB = 536 870 912 MB at 10 MB/s: 1500 + 53 687 091 200 ms = 621.4 days.
    expect(() => deriveSwimWorkload('t', [job(0, PIB, PIB)], 20, cluster({ reduceMbPerS: 10 }))).toThrow(
      'trace t, job job0 (line 1) on cluster c: a reduce would run 621 days (536870912 MB each at 10 MB/s, 4 reduces); ' +
        'a task may run at most 366 days',
    );
    // A cluster whose maps crawl: 64 MB at 0.000001 MB/s is 64 000 000 s = 741 days.
    expect(() => deriveSwimWorkload('t', [job(1, 0, 0)], 20, cluster({ mapMbPerS: 0.000001 }))).toThrow(
      'a map would run 741 days (64 MB at 0.000001 MB/s)',
    );
  });

  it('refuses a workload of more tasks than one replay can get through', () => {
    const cluster = parseCluster({ name: 'c', nodeGroups: [{ name: 'n', count: 20, memoryMb: 8192, vcores: 8 }] });
    // 16 jobs of 2^24 maps + 1 reduce = 268 435 472 tasks, above 2^28 = 268 435 456; 15 jobs are not.
    const jobs = Array.from({ length: 16 }, (_, i) => ({ ...job(2 ** 50, 0, 0, i), jobId: `j${i}` }));
    expect(deriveSwimWorkload('t', jobs.slice(0, 15), 20, cluster).apps).toHaveLength(15);
    expect(() => deriveSwimWorkload('t', jobs, 20, cluster)).toThrow(
      'trace t on cluster c would run 268435472 tasks; a replay may run at most 268435456',
    );
  });

  it('knows the source cluster sizes of the published Facebook traces', () => {
    expect(knownSwimSourceNodes('FB-2009_samples_24_times_1hr_0.tsv')).toBe(600);
    expect(knownSwimSourceNodes('FB-2010_samples_24_times_1hr_0.tsv')).toBe(3000);
    expect(knownSwimSourceNodes('other.tsv')).toBeNull();
  });
});

describe('deriveSwimWorkload memory (issue 25, the million-app day)', () => {
  const cluster = parseCluster({ name: 'c', nodeGroups: [{ name: 'n', count: 20, memoryMb: 8192, vcores: 4 }] });

  it('gives jobs of the same shape one shared stage list, and jobs of another shape their own', () => {
    const jobs = [job(1000, 0, 0, 0), job(2000, 0, 0, 1), job(100 * MIB, 0, 0, 2), job(3000, 0, 0, 3)];
    const apps = deriveSwimWorkload('t', jobs, 20, cluster).apps;
    // Jobs 0, 1 and 3 are one block each: one map, one reduce.
    expect(apps[1]!.stages).toBe(apps[0]!.stages);
    expect(apps[3]!.stages).toBe(apps[0]!.stages);
    expect(apps[2]!.stages).not.toBe(apps[0]!.stages);
    expect(apps[2]!.stages[0]!.taskCount).toBe(2);
    expect(apps[0]!.stages[0]!.taskCount).toBe(1);
  });

  it('reads every field a plain spec has, and writes them to JSON (a sweep workload file) in the order of a plain spec', () => {
    const app = deriveSwimWorkload('t', [{ ...job(1000, 0, 0, 7), jobId: 'job42' }], 20, cluster).apps[0]!;
    const plain = {
      id: 'job42',
      name: 'swim job42',
      type: 'mapreduce',
      applicationType: 'MAPREDUCE',
      observed: false,
      queue: 'default',
      user: 'swim',
      submitMs: 7000,
      amRequest: cluster.mapreduce.amRequest,
      amStartupMs: cluster.taskModel.amStartupMs,
      amTeardownMs: 0,
      stages: app.stages,
    };
    for (const [field, value] of Object.entries(plain)) expect(app[field as keyof typeof app], field).toEqual(value);
    // The same text, key for key: a workload file is hashed by its text.
    expect(JSON.stringify(app)).toBe(JSON.stringify(plain));
  });
});
