// Where `report` writes its Markdown: a directory for NAME.md, or a .md path for the file itself;
// a path it cannot write is a user error naming it, never an internal error.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runReport } from '../../src/api/index.js';
import { UserError } from '../../src/model/errors.js';
import { tempFile, tempPath } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

describe('runReport --out', () => {
  it('writes NAME.md into a directory, made with its parents when missing', async () => {
    await withStore(async (store) => {
      const dir = tempPath('report-out/deeper/still');
      const result = await runReport(store, { outDir: dir });
      expect(result.markdownPath).toBe(join(dir, 'makespan.md'));
      expect(readFileSync(result.markdownPath!, 'utf8')).toContain('# makespan');
    });
  });

  it('writes the report itself to a path ending in .md, new or existing', async () => {
    await withStore(async (store) => {
      const fresh = tempPath('report-file/new/my-report.md');
      expect((await runReport(store, { outDir: fresh })).markdownPath).toBe(fresh);
      expect(readFileSync(fresh, 'utf8')).toContain('# makespan');
      const existing = tempFile('old-report.md', 'stale');
      await runReport(store, { name: 'comparison', outDir: existing });
      expect(readFileSync(existing, 'utf8')).toContain('# comparison');
    });
  });

  it('refuses a file that is not Markdown, or a path under a file, as user errors naming them', async () => {
    await withStore(async (store) => {
      const file = tempFile('report-out.txt', 'keep me');
      await expect(runReport(store, { outDir: file })).rejects.toThrow(UserError);
      await expect(runReport(store, { outDir: file })).rejects.toThrow(
        `--out ${file} is a file, not a directory: give a directory for makespan.md, or a path ending in .md for the report itself`,
      );
      expect(readFileSync(file, 'utf8')).toBe('keep me');
      await expect(runReport(store, { outDir: join(file, 'sub') })).rejects.toThrow(
        `cannot write the report to ${join(file, 'sub', 'makespan.md')} (ENOTDIR)`,
      );
      await expect(runReport(store, { outDir: join(file, 'x.md') })).rejects.toThrow(
        `cannot write the report under ${file}: it is a file, not a directory`,
      );
      // A directory whose name ends in .md is a directory.
      const dir = tempPath('reports.md');
      mkdirSync(dir);
      writeFileSync(join(dir, 'other'), '');
      expect((await runReport(store, { outDir: dir })).markdownPath).toBe(join(dir, 'makespan.md'));
    });
  });
});
