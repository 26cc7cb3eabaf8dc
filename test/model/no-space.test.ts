// A full disk is told as the directory that filled, from Node's errors and DuckDB's messages.

import { describe, expect, it } from 'vitest';
import { NoSpaceError, noSpaceErrorOf } from '../../src/model/no-space.js';
import { UserError } from '../../src/model/errors.js';

describe('noSpaceErrorOf', () => {
  it("names the directory of the file DuckDB's message quotes, in each of its forms", () => {
    const messages = [
      'TransactionContext Error: Failed to commit: Could not write file "/data/db/rm.duckdb.wal": No space left on device',
      'Failed to append: Could not write file "/data/db/rm.duckdb": No space left on device',
      'IO Error: Could not write to file "/data/db/rm.duckdb" - attempted to write 0 bytes: No space left on device',
      'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.\n' +
        'Original error: "Failed to create checkpoint because of error: Could not write file "/data/db/rm.duckdb": No space left on device"',
    ];
    for (const message of messages) expect(noSpaceErrorOf(new Error(message), '/elsewhere')?.message).toBe('no space left on /data/db');
  });

  it("names the directory of Node's ENOSPC path, or the fallback when the error names no file", () => {
    const open = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC', path: '/data/out/report.md' });
    expect(noSpaceErrorOf(open, '/elsewhere')?.dir).toBe('/data/out');
    const write = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(noSpaceErrorOf(write, '/data/out')?.dir).toBe('/data/out');
    expect(noSpaceErrorOf(new Error('IO Error: No space left on device'), '/data/db')?.dir).toBe('/data/db');
  });

  it('is a user error, and leaves other errors alone', () => {
    expect(noSpaceErrorOf(new Error('Conversion Error: could not convert'), '/d')).toBeNull();
    expect(noSpaceErrorOf(Object.assign(new Error('EACCES'), { code: 'EACCES', path: '/d/f' }), '/d')).toBeNull();
    const error = noSpaceErrorOf(new Error('No space left on device'), '/d');
    expect(error).toBeInstanceOf(NoSpaceError);
    expect(error).toBeInstanceOf(UserError);
    expect(noSpaceErrorOf(error, '/other')).toBe(error);
  });
});
