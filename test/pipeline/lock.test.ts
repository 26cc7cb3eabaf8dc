import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../../src/pipeline/lock.js';
import { StoreError } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';

/** A pid that is surely gone: a child that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function writeHolder(path: string, holder: { pid: number; host: string; startedAt?: string; command?: string }): void {
  writeFileSync(path, JSON.stringify({ startedAt: '2026-11-23T02:30:00.000Z', command: 'rmreplay pipeline p.json', ...holder }));
}

describe('the pipeline lock', () => {
  it('is held by one process at a time and removed on release', async () => {
    const path = tempPath('lock-simple.lock');
    const held = await acquireLock(path, { waitMs: 0, command: 'test' });
    const holder = JSON.parse(readFileSync(path, 'utf8')) as { pid: number; host: string; command: string };
    expect(holder).toMatchObject({ pid: process.pid, host: hostname(), command: 'test' });
    expect(held.takenOverFrom).toBeNull();
    await held.release();
    expect(existsSync(path)).toBe(false);
  });

  it('refuses at once, naming the holder, when a live process holds it and --wait is 0', async () => {
    const path = tempPath('lock-live.lock');
    // The parent of this test process is alive for as long as the test runs.
    writeHolder(path, { pid: process.ppid, host: hostname() });
    const error = await acquireLock(path, { waitMs: 0, command: 'test' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toBe(
      `another pipeline is running on this database: pid ${process.ppid} on ${hostname()}, started 2026-11-23T02:30:00.000Z ` +
        '(rmreplay pipeline p.json); pass --wait SECONDS to wait for it',
    );
    // The holder's lock is untouched.
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('waits for the holder to release it', async () => {
    const path = tempPath('lock-wait.lock');
    const first = await acquireLock(path, { waitMs: 0, command: 'first' });
    const told: number[] = [];
    setTimeout(() => void first.release(), 300);
    const second = await acquireLock(path, { waitMs: 10_000, command: 'second', onWait: (holder) => told.push(holder.pid) });
    expect(told).toEqual([process.pid]);
    expect(second.waitedMs).toBeGreaterThanOrEqual(250);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ command: 'second' });
    await second.release();
  });

  it('takes over a lock left by a process of this host that is gone', async () => {
    const path = tempPath('lock-stale.lock');
    const pid = deadPid();
    writeHolder(path, { pid, host: hostname() });
    const held = await acquireLock(path, { waitMs: 0, command: 'test' });
    expect(held.takenOverFrom).toMatchObject({ pid, host: hostname() });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ pid: process.pid });
    await held.release();
  });

  it('never takes over a lock of another host, and says how to clear it', async () => {
    const path = tempPath('lock-remote.lock');
    writeHolder(path, { pid: deadPid(), host: 'some-other-host.example' });
    await expect(acquireLock(path, { waitMs: 0, command: 'test' })).rejects.toThrow(
      new RegExp(`on some-other-host\\.example, .*; if that process is gone, remove ${path.replace(/[.]/g, '\\.')}$`),
    );
  });
});

describe('the pipeline lock, waited for in vain', () => {
  it('gives up after --wait, saying how long it waited', async () => {
    const path = tempPath('lock-timeout.lock');
    writeHolder(path, { pid: process.ppid, host: hostname() });
    const started = Date.now();
    await expect(acquireLock(path, { waitMs: 500, command: 'test' })).rejects.toThrow(
      new RegExp(`^another pipeline is running on this database after waiting 0\\.5 s: pid ${process.ppid} on `),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});
