// Where a report's files go: `--out` names a directory for NAME.md and NAME.html (made if
// missing), or a path ending in .md for the Markdown itself, the HTML beside it (same name,
// .html). A path that cannot be written is a user error naming it.

import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UserError } from '../model/errors.js';

export interface ReportPaths {
  readonly markdownPath: string;
  readonly htmlPath: string;
}

/** The files report NAME writes for `out`, checked: a path that is a file must end in .md. */
export async function reportPaths(out: string, name: string): Promise<ReportPaths> {
  const existing = await stat(out).catch(() => null);
  const isFile = existing === null ? /\.md$/i.test(out) : !existing.isDirectory();
  if (isFile && !/\.md$/i.test(out)) {
    throw new UserError(
      `--out ${out} is a file, not a directory: give a directory for ${name}.md, or a path ending in .md for the report itself`,
    );
  }
  const markdownPath = isFile ? resolve(out) : join(resolve(out), `${name}.md`);
  return { markdownPath, htmlPath: markdownPath.replace(/\.md$/i, '.html') };
}

/** Write `text` to `path`, making its directory; failures are user errors naming the path. */
export async function writeReportFile(path: string, text: string): Promise<void> {
  try {
    await makeDirectories(dirname(path));
    await writeFile(path, text);
  } catch (error) {
    if (error instanceof UserError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot write the report to ${path}${code ? ` (${code})` : ''}`);
  }
}

/**
 * `mkdir -p`, by hand: Node 20's recursive mkdir never returns where mkdir answers ENOENT under a
 * directory that exists (`/proc/x`); here each level is tried once.
 */
async function makeDirectories(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      if ((await stat(dir)).isDirectory()) return;
      throw new UserError(`cannot write the report under ${dir}: it is a file, not a directory`);
    }
    const parent = dirname(dir);
    if (code !== 'ENOENT' || parent === dir) throw error;
    await makeDirectories(parent);
    await mkdir(dir);
  }
}
