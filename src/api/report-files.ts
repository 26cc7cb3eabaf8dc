// Where a report's files go: `--out` names a directory for NAME.md and NAME.html (made if
// missing), or a path ending in .md for the Markdown itself, the HTML beside it (same name,
// .html). A path that cannot be written is a user error naming it. Files are written whole or not
// at all: into a temporary file beside each, renamed over it once every one is written.

import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../model/errors.js';
import { noSpaceErrorOf } from '../model/no-space.js';

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
  await writeReportFiles([{ path, text }]);
}

/**
 * Write each file's text to its path, making directories: each is written to a temporary file
 * beside it, and they are renamed into place once all are written, so that a failure (a full
 * disk: "no space left on DIR") leaves neither a half-written report nor a Markdown file without
 * the page it goes with, and removes the temporary files.
 */
export async function writeReportFiles(files: readonly { readonly path: string; readonly text: string }[]): Promise<void> {
  const written: { readonly path: string; readonly temporary: string }[] = [];
  let current = files[0]?.path ?? '';
  try {
    for (const { path, text } of files) {
      current = path;
      await makeDirectories(dirname(path));
      const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
      written.push({ path, temporary });
      await writeFile(temporary, text);
    }
    for (const { path, temporary } of written) {
      current = path;
      await rename(temporary, path);
    }
  } catch (error) {
    await Promise.all(written.map(({ temporary }) => rm(temporary, { force: true })));
    if (error instanceof UserError) throw error;
    const noSpace = noSpaceErrorOf(error, dirname(current));
    if (noSpace !== null) throw noSpace;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`cannot write the report to ${current}${code ? ` (${code})` : ''}`);
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
