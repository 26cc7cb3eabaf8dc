// A sweep's worker processes outlive a sweep killed with SIGKILL only until they next speak to
// it: then they exit, and say nothing (a killed pipeline's log got an EPIPE stack trace from
// every worker). Runs the compiled workers, as a sweep does (`npm run build` first).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempFile } from '../helpers/files.js';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));

// Kills itself once two runs are replayed, with the workers in the middle of others.
const SWEEP_THEN_DIE = `
const { sweepRuns } = await import(process.argv[2] + '/src/api/index.js');
const { Store } = await import(process.argv[2] + '/src/store/index.js');
const store = await Store.open(':memory:');
await sweepRuns(store, {
  source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 40 } },
  schedulers: ['capacity-fifo'],
  policies: ['none'],
  seeds: Array.from({ length: 200 }, (_, i) => i + 1),
  workers: 2,
  onProgress: (p) => { if (p.done >= 2) process.kill(process.pid, 'SIGKILL'); },
});
`;

describe('replay worker', () => {
  it('exits quietly once the sweep that started it is killed', async () => {
    const script = tempFile('sweep-then-die.mjs', SWEEP_THEN_DIE);
    const child = spawn(process.execPath, [script, DIST], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, s) => resolve(s)));
    expect(signal).toBe('SIGKILL');
    // The workers hold the same pipes: they close once the last worker has exited.
    await Promise.all([new Promise((resolve) => child.stdout.on('close', resolve)), new Promise((resolve) => child.stderr.on('close', resolve))]);
    expect(output).toBe('');
  }, 120_000);
});
