// `rmreplay worker` leaves quietly, with a status that says why: 0 when SIGTERM or SIGINT asked it
// to stop, 3 when its Redis has been unreachable for --queue-lost-seconds. One line, no stack trace.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempPath } from '../helpers/files.js';
import { NEEDS_REDIS, REDIS_AVAILABLE, startRedis } from '../fixtures/redis-server.js';

const BIN = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));

interface Worker {
  readonly child: ChildProcess;
  readonly waiting: Promise<void>;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function startWorker(url: string, results: string): Worker {
  const child = spawn(process.execPath, [BIN, 'worker', '--queue', url, '--results', results, '--queue-lost-seconds', '2'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let onWaiting: () => void = () => undefined;
  const waiting = new Promise<void>((resolve) => (onWaiting = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stdout.includes('worker: waiting for runs')) onWaiting();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, waiting, exit };
}

describe.skipIf(!REDIS_AVAILABLE)(`rmreplay worker's exit${NEEDS_REDIS}`, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops on ${signal} with status 0, saying so in one line`, async () => {
      const redis = await startRedis();
      try {
        const worker = startWorker(redis.url, tempPath(`worker-exit-${signal}`));
        await worker.waiting;
        worker.child.kill(signal);
        const exit = await worker.exit;
        expect([exit.code, exit.signal, exit.stderr]).toEqual([0, null, '']);
        expect(exit.stdout.trim().split('\n').at(-1)).toBe(`worker: stopped by ${signal}`);
      } finally {
        await redis.stop();
      }
    }, 60_000);
  }

  it('leaves with status 3 and one line once its Redis has been gone for --queue-lost-seconds', async () => {
    const redis = await startRedis();
    const worker = startWorker(redis.url, tempPath('worker-exit-lost'));
    await worker.waiting;
    await redis.stop();
    const exit = await worker.exit;
    expect([exit.code, exit.signal]).toEqual([3, null]);
    expect(exit.stderr).toBe(`rmreplay: worker: the queue at ${redis.url} could not be reached for 2 s; leaving\n`);
  }, 60_000);
});
