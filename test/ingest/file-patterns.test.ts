import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandPattern } from '../../src/ingest/file-patterns.js';
import { tempPath } from '../helpers/files.js';

const root = tempPath('glob-tree');
const FILES = [
  'rm/yarn-rm-a.log',
  'rm/yarn-rm-a.log.1',
  'rm/yarn-rm-b.log',
  'rm/.yarn-rm-hidden.log',
  'rm/old/yarn-rm-a.log.2',
  'rm/old/deeper/yarn-rm-a.log.3',
  'rm/.snapshot/yarn-rm-a.log.9',
  'other/notes.txt',
  'odd (1)/[x].log',
  'twin/c.log',
];

beforeAll(() => {
  for (const file of FILES) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), 'x\n');
  }
  // A link back up: following it would never end.
  symlinkSync(join(root, 'rm'), join(root, 'rm', 'old', 'loop'));
  // A directory whose name a file pattern matches, and a link to a log.
  mkdirSync(join(root, 'rm', 'yarn-rm-dir.log'));
  symlinkSync(join(root, 'other', 'notes.txt'), join(root, 'rm', 'yarn-rm-link.log'));
  // A link beside its target, and a directory reached through a link.
  symlinkSync(join(root, 'twin', 'c.log'), join(root, 'twin', 'c-link.log'));
  symlinkSync(join(root, 'twin'), join(root, 'twin-dir'));
});

const rel = (paths: string[]): string[] => paths.map((p) => p.slice(root.length + 1));

describe('expandPattern', () => {
  it('matches * and ? within one name, not a leading dot', async () => {
    expect(rel(await expandPattern('rm/yarn-rm-?.log', root))).toEqual(['rm/yarn-rm-a.log', 'rm/yarn-rm-b.log']);
    expect(rel(await expandPattern('rm/yarn-rm-?.log*', root))).toEqual(['rm/yarn-rm-a.log', 'rm/yarn-rm-a.log.1', 'rm/yarn-rm-b.log']);
    expect(rel(await expandPattern('rm/.yarn-*', root))).toEqual(['rm/.yarn-rm-hidden.log']);
  });

  it('matches ** as any number of directories, none included, skipping hidden ones and links', async () => {
    expect(rel(await expandPattern('rm/**/yarn-rm-a.log*', root))).toEqual([
      'rm/old/deeper/yarn-rm-a.log.3',
      'rm/old/yarn-rm-a.log.2',
      'rm/yarn-rm-a.log',
      'rm/yarn-rm-a.log.1',
    ]);
  });

  it('matches files only: a directory the pattern matches is left out, a link to a file is in', async () => {
    expect(rel(await expandPattern('rm/yarn-rm-*.log', root))).toEqual(['rm/yarn-rm-a.log', 'rm/yarn-rm-b.log', 'rm/yarn-rm-link.log']);
    expect(rel(await expandPattern('rm/*', root))).not.toContain('rm/old');
  });

  it('takes a file reached twice (a link beside it, its directory through a link) once, by its shortest path', async () => {
    expect(rel(await expandPattern('twin/*.log', root))).toEqual(['twin/c.log']);
    expect(rel(await expandPattern('{twin,twin-dir}/c*.log', root))).toEqual(['twin/c.log']);
    expect(rel(await expandPattern('twin-dir/c*.log', root))).toEqual(['twin-dir/c.log']);
  });

  it('takes the directories before the first wildcard literally', async () => {
    expect(rel(await expandPattern('odd (1)/*.log', root))).toEqual(['odd (1)/[x].log']);
  });

  it('takes an absolute pattern as it is and a relative one from the base directory', async () => {
    expect(await expandPattern(join(root, 'other', '*.txt'), '/elsewhere')).toEqual([join(root, 'other', 'notes.txt')]);
    expect(await expandPattern('*/notes.txt', root)).toEqual([join(root, 'other', 'notes.txt')]);
  });

  it('matches nothing in a directory that does not exist or for a name that is not there', async () => {
    expect(await expandPattern('missing/*.log', root)).toEqual([]);
    expect(await expandPattern('rm/*.gz', root)).toEqual([]);
  });
});
