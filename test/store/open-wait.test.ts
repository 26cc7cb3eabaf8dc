import { describe, expect, it } from 'vitest';
import { Store, StoreError } from '../../src/store/index.js';
import { describeLockHolder, lockConflictOf } from '../../src/store/lock-conflict.js';
import { exited, holdDatabase } from '../helpers/hold-database.js';
import { tempPath } from '../helpers/files.js';

describe('a database another process holds', () => {
  it('is refused at once, in one line naming the holder, without --wait', async () => {
    const path = tempPath('held-refused.duckdb');
    const holder = await holdDatabase(path, 10_000);
    try {
      const error = await Store.open(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      const message = (error as Error).message;
      expect(message).not.toContain('\n');
      // The holder's pid and its command line (from /proc on Linux).
      expect(message).toMatch(
        new RegExp(`^database ${path} is in use by another program: PID ${holder.pid} \\(.*node.*--input-type=module.*\\); try again when it ends, or pass --wait SECONDS$`),
      );
    } finally {
      holder.kill();
      await exited(holder);
    }
  });

  it('is opened once the holder lets go, within the wait', async () => {
    const path = tempPath('held-waited.duckdb');
    const holder = await holdDatabase(path, 700);
    const started = Date.now();
    const store = await Store.open(path, { waitMs: 20_000 });
    try {
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
      expect((await store.query('SELECT 1')).rows).toEqual([[1]]);
    } finally {
      store.close();
      await exited(holder);
    }
  });

  it('reads the holder from DuckDB\'s message and leaves other errors alone', () => {
    const message =
      'IO Error: Could not set lock on file "/tmp/x.duckdb": Conflicting lock is held in /usr/bin/node (PID 4242). See also https://duckdb.org/docs/stable/connect/concurrency';
    expect(lockConflictOf(message)).toEqual({ program: '/usr/bin/node', pid: 4242 });
    expect(lockConflictOf('IO Error: Cannot open file "/x": Permission denied')).toBeNull();
    // A pid that is gone: only the program DuckDB named.
    expect(describeLockHolder({ program: '/usr/bin/node', pid: 2 ** 22 + 7 })).toBe(`PID ${2 ** 22 + 7} (/usr/bin/node)`);
  });
});
