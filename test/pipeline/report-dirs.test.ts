import { existsSync, mkdirSync, readFileSync, readlinkSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datedName, pruneReports, startReportDir, timeOfDatedName } from '../../src/pipeline/report-dirs.js';
import { tempPath } from '../helpers/files.js';

describe('dated report directories', () => {
  it('are named by the UTC time, and the name gives the time back', () => {
    const time = new Date('2026-11-23T02:30:05.789Z');
    expect(datedName(time)).toBe('2026-11-23T023005Z');
    expect(timeOfDatedName('2026-11-23T023005Z')).toEqual(new Date('2026-11-23T02:30:05Z'));
    expect(timeOfDatedName('2026-11-23T023005Z-2')).toEqual(new Date('2026-11-23T02:30:05Z'));
    expect(timeOfDatedName('notes')).toBeNull();
  });

  it('are published whole under a free name, with latest pointing at the newest', async () => {
    const dir = tempPath('reports-publish');
    const time = new Date('2026-11-23T02:30:05Z');
    const first = await startReportDir(dir, time);
    writeFileSync(join(first.path, 'a.md'), 'first');
    // Not visible under its dated name until published.
    expect(existsSync(join(dir, '2026-11-23T023005Z'))).toBe(false);
    expect(await first.publish()).toBe(join(dir, '2026-11-23T023005Z'));
    // A second run in the same second gets -2.
    const second = await startReportDir(dir, time);
    expect(await second.publish()).toBe(join(dir, '2026-11-23T023005Z-2'));
    expect(readlinkSync(join(dir, 'latest'))).toBe('2026-11-23T023005Z-2');
    expect(readdirSync(dir).sort()).toEqual(['2026-11-23T023005Z', '2026-11-23T023005Z-2', 'latest']);
  });

  it('refuses to replace a latest that is not a link', async () => {
    const dir = tempPath('reports-latest-dir');
    mkdirSync(join(dir, 'latest'), { recursive: true });
    const draft = await startReportDir(dir, new Date('2026-11-23T02:30:05Z'));
    await expect(draft.publish()).rejects.toThrow(`${join(dir, 'latest')} exists and is not a symbolic link`);
  });

  it('are pruned past the days kept, by the time in their name; nothing else is touched', async () => {
    const dir = tempPath('reports-prune');
    for (const name of ['2026-11-01T023000Z', '2026-11-09T023000Z', '2026-11-09T023001Z', '2026-11-22T023000Z']) {
      await (await startReportDir(dir, timeOfDatedName(name)!)).publish();
    }
    for (const name of ['notes', '2026-01-01-handmade']) mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, '2025-01-01T000000Z.md'), 'a file, not a report directory');
    const now = new Date('2026-11-23T02:30:00Z');
    // Keep 14 days: the cutoff is 2026-11-09T02:30:00Z, so 02:30:00 that day stays (not older), 11-01 goes.
    expect(await pruneReports(dir, 14, now, '2026-11-22T023000Z')).toEqual({ removed: [join(dir, '2026-11-01T023000Z')], unmarked: [] });
    expect(readdirSync(dir).sort()).toEqual(['2025-01-01T000000Z.md', '2026-01-01-handmade', '2026-11-09T023000Z', '2026-11-09T023001Z', '2026-11-22T023000Z', 'latest', 'notes']);
    // The one kept is never removed, however old.
    expect((await pruneReports(dir, 1, new Date('2027-01-01T00:00:00Z'), '2026-11-22T023000Z')).removed).toEqual([
      join(dir, '2026-11-09T023000Z'),
      join(dir, '2026-11-09T023001Z'),
    ]);
  });

  it('are pruned only if the pipeline marked them: a directory merely named like one is left, and named', async () => {
    const dir = tempPath('reports-prune-unmarked');
    const kept = await (await startReportDir(dir, new Date('2026-11-22T02:30:00Z'))).publish();
    // A user's own directory with a dated name, and a draft-like one of a process that is gone.
    mkdirSync(join(dir, '2026-01-01T000000Z'));
    writeFileSync(join(dir, '2026-01-01T000000Z', 'thesis.tex'), 'mine');
    mkdirSync(join(dir, '.2026-01-01T000000Z.999999999.partial'));
    writeFileSync(join(dir, '.2026-01-01T000000Z.999999999.partial', 'draft.txt'), 'mine too');
    const result = await pruneReports(dir, 1, new Date('2027-01-01T00:00:00Z'), basename(kept));
    expect(result).toEqual({ removed: [], unmarked: [join(dir, '2026-01-01T000000Z')] });
    expect(readFileSync(join(dir, '2026-01-01T000000Z', 'thesis.tex'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, '.2026-01-01T000000Z.999999999.partial', 'draft.txt'), 'utf8')).toBe('mine too');
  });

  it('of a pipeline that died are pruned when marked', async () => {
    const dir = tempPath('reports-prune-dead-draft');
    const draft = await startReportDir(dir, new Date('2026-11-22T02:30:00Z'));
    // As a pipeline of a pid that no longer runs would have left it.
    const dead = join(dir, '.2026-11-22T023000Z.999999999.partial');
    renameSync(draft.path, dead);
    expect((await pruneReports(dir, 14, new Date('2026-11-23T02:30:00Z'), 'latest')).removed).toEqual([dead]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
