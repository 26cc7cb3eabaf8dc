import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expandGlob } from '../../src/pipeline/glob.js';
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
];

beforeAll(() => {
  for (const file of FILES) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), 'x\n');
  }
  // A link back up: following it would never end.
  symlinkSync(join(root, 'rm'), join(root, 'rm', 'old', 'loop'));
});

const rel = (paths: string[]): string[] => paths.map((p) => p.slice(root.length + 1));

describe('expandGlob', () => {
  it('matches * and ? within one name, not a leading dot', async () => {
    expect(rel(await expandGlob('rm/yarn-rm-*.log', root))).toEqual(['rm/yarn-rm-a.log', 'rm/yarn-rm-b.log']);
    expect(rel(await expandGlob('rm/yarn-rm-?.log*', root))).toEqual(['rm/yarn-rm-a.log', 'rm/yarn-rm-a.log.1', 'rm/yarn-rm-b.log']);
    expect(rel(await expandGlob('rm/.yarn-*', root))).toEqual(['rm/.yarn-rm-hidden.log']);
  });

  it('matches ** as any number of directories, none included, skipping hidden ones and links', async () => {
    expect(rel(await expandGlob('rm/**/yarn-rm-a.log*', root))).toEqual([
      'rm/old/deeper/yarn-rm-a.log.3',
      'rm/old/yarn-rm-a.log.2',
      'rm/yarn-rm-a.log',
      'rm/yarn-rm-a.log.1',
    ]);
  });

  it('takes an absolute pattern as it is and a relative one from the base directory', async () => {
    expect(await expandGlob(join(root, 'other', '*.txt'), '/elsewhere')).toEqual([join(root, 'other', 'notes.txt')]);
    expect(await expandGlob('*/notes.txt', root)).toEqual([join(root, 'other', 'notes.txt')]);
  });

  it('matches nothing in a directory that does not exist or for a name that is not there', async () => {
    expect(await expandGlob('missing/*.log', root)).toEqual([]);
    expect(await expandGlob('rm/*.gz', root)).toEqual([]);
  });
});
