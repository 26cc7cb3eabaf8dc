// Where rmreplay's own files are: the package root holds queries/, views/, sql/, clusters/ and package.json,
// whether the code runs from src/ (tests) or from the compiled dist/src/ (the CLI).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (parsed.name === 'rmreplay') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the rmreplay package root');
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();
export const QUERIES_DIR = join(PACKAGE_ROOT, 'queries');
export const VIEWS_DIR = join(PACKAGE_ROOT, 'views');
export const RECORDED_SQL_DIR = join(PACKAGE_ROOT, 'sql', 'recorded');
export const CLUSTERS_DIR = join(PACKAGE_ROOT, 'clusters');

export const VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string })
  .version;
