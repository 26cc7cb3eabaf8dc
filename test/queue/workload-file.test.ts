// A workload written for queue workers comes back exactly: every double of every per-task
// duration bit for bit, and the same workload is one file.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelledMapReduceApp, mapReduceStages } from '../../src/model/workload.js';
import type { Workload } from '../../src/model/workload.js';
import { readWorkloadFile, writeWorkloadFile, WORKLOADS_DIR } from '../../src/queue/workload-file.js';
import { tempPath } from '../helpers/files.js';
import { mkdirSync } from 'node:fs';

const DURATIONS = new Float64Array([0.1 + 0.2, -0, 5e-324, 1.7976931348623157e308, 12_345.678]);

function workload(name: string): Workload {
  return {
    name,
    apps: [
      modelledMapReduceApp({
        id: 'application_1_0001',
        name: 'sort <"quoted"> ünïcode',
        user: 'alice',
        amRequest: { memoryMb: 1536, vcores: 1 },
        amStartupMs: 2_000,
        stages: mapReduceStages(
          { request: { memoryMb: 1024, vcores: 1 }, taskCount: 5, durations: { kind: 'per-task', durationsMs: DURATIONS } },
          { request: { memoryMb: 2048, vcores: 1 }, taskCount: 1, durations: { kind: 'uniform', durationMs: 30_000 } },
          0.05,
        ),
      }),
    ],
  };
}

describe('workload files', () => {
  it('give back the workload written, durations bit for bit', async () => {
    const dir = tempPath('workloads-roundtrip');
    mkdirSync(join(dir, WORKLOADS_DIR), { recursive: true });
    const written = workload('day-1');
    const back = await readWorkloadFile(join(dir, await writeWorkloadFile(dir, written)));
    expect(back).toEqual(written);
    const durations = back.apps[0]!.stages[0]!.durations;
    expect(durations.kind).toBe('per-task');
    const bits = (a: Float64Array): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
    if (durations.kind === 'per-task') {
      expect(durations.durationsMs).toBeInstanceOf(Float64Array);
      expect(bits(durations.durationsMs)).toBe(bits(DURATIONS));
      expect(Object.is(durations.durationsMs[1], -0)).toBe(true);
    }
  });

  it('are one file per content: written again, the same; another name, another file', async () => {
    const dir = tempPath('workloads-named');
    mkdirSync(join(dir, WORKLOADS_DIR), { recursive: true });
    const first = await writeWorkloadFile(dir, workload('day-1'));
    expect(await writeWorkloadFile(dir, workload('day-1'))).toBe(first);
    expect(await writeWorkloadFile(dir, workload('day-2'))).not.toBe(first);
    expect(readdirSync(join(dir, WORKLOADS_DIR)).filter((name) => name.endsWith('.parquet'))).toHaveLength(2);
  });
});
