// What rmreplay may delete: a directory it marked as its own output and holding nothing it would
// not write, or one it made in this process; never through a link, never one holding a path kept.

import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holds, makeOwnDir, makeOwnTempDir, markOwnOutput, readOwnMark, removeOwnOutput } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';

describe('own output', () => {
  it('is removed only with its own kind of mark, and not through a link to it', async () => {
    const dir = tempPath('own-marked');
    mkdirSync(dir);
    await markOwnOutput(dir, 'report', new Date('2026-11-23T02:30:00Z'));
    expect(await readOwnMark(dir, 'report')).toMatchObject({ tool: 'rmreplay', kind: 'report', writtenAt: '2026-11-23T02:30:00.000Z' });
    // A report's mark does not make it an export.
    expect(await removeOwnOutput(dir, 'export')).toBe('rmreplay did not write it (no .rmreplay-export in it)');
    const link = tempPath('own-marked-link');
    symlinkSync(dir, link);
    expect(await removeOwnOutput(link, 'report')).toBe('it is not a directory');
    expect(existsSync(join(dir, '.rmreplay-report'))).toBe(true);
    expect(await removeOwnOutput(dir, 'report')).toBeNull();
    expect(existsSync(dir)).toBe(false);
  });

  it('is not removed if a mark of the same name is not rmreplay JSON, or if it holds a path kept', async () => {
    const forged = tempPath('own-forged');
    mkdirSync(forged);
    writeFileSync(join(forged, '.rmreplay-report'), 'not JSON');
    expect(await removeOwnOutput(forged, 'report')).toBe('rmreplay did not write it (no .rmreplay-report in it)');
    const holding = tempPath('own-holding');
    mkdirSync(join(holding, 'deep'), { recursive: true });
    await markOwnOutput(holding, 'report', new Date());
    writeFileSync(join(holding, 'deep', 'rm.duckdb'), '');
    expect(await removeOwnOutput(holding, 'report', { keep: [join(holding, 'deep', 'rm.duckdb')] })).toBe(`it holds ${join(holding, 'deep', 'rm.duckdb')}`);
    expect(readdirSync(holding).sort()).toEqual(['.rmreplay-report', 'deep']);
  });

  it('holds a path by real paths: through a linked directory, and where a linked file points', async () => {
    const dir = tempPath('own-holds');
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'rm.duckdb'), '');
    const linkedDir = tempPath('own-holds-dir-link');
    symlinkSync(join(dir, 'data'), linkedDir);
    const linkedFile = tempPath('own-holds-file-link');
    symlinkSync(join(dir, 'data', 'rm.duckdb'), linkedFile);
    expect(await holds(join(dir, 'data'), join(linkedDir, 'rm.duckdb'))).toBe(true);
    expect(await holds(dir, linkedFile)).toBe(true);
    expect(await holds(join(dir, 'data'), join(dir, 'data'))).toBe(true);
    expect(await holds(join(dir, 'data'), join(dir, 'data-2', 'rm.duckdb'))).toBe(false);
    expect(await holds(join(dir, 'data'), tempPath('elsewhere.duckdb'))).toBe(false);
  });

  it('made in this process is removed by its handle, until it is moved away', async () => {
    const made = await makeOwnDir(tempPath('own-made'));
    writeFileSync(join(made.path, 'part'), 'x');
    await made.remove();
    expect(existsSync(made.path)).toBe(false);
    // A name that is taken is not made, so it cannot be removed as this process's.
    mkdirSync(tempPath('own-taken'));
    await expect(makeOwnDir(tempPath('own-taken'))).rejects.toThrow(/EEXIST/);
    const moved = await makeOwnTempDir(tempPath('own-temp-'));
    await moved.moveTo(tempPath('own-moved'));
    // Something else now at its old name is not this handle's.
    mkdirSync(moved.path);
    await moved.remove();
    expect(existsSync(moved.path)).toBe(true);
    expect(existsSync(tempPath('own-moved'))).toBe(true);
  });
});
