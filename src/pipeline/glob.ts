// File patterns for a pipeline's configuration: Node 20 has no fs.glob, and a log directory
// needs only a little of what shells do. Supported: `*` (any run of characters within one path
// segment), `?` (one character), and `**` as a whole segment (any number of directories,
// including none). No braces, no character classes, no negation. As in a shell, a wildcard does
// not match a name's leading dot, and `**` does not descend into hidden directories or through
// symbolic links to directories (a link cycle would never end); a link to a file matches.

import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';

/** Whether a pattern has anything to expand (otherwise it names one file). */
export function isPattern(pattern: string): boolean {
  return /[*?]/.test(pattern);
}

/**
 * The files a pattern matches, absolute and sorted; relative patterns are taken from `baseDir`.
 * A directory that cannot be read matches nothing.
 */
export async function expandGlob(pattern: string, baseDir: string): Promise<string[]> {
  const absolute = isAbsolute(pattern) ? pattern : resolve(baseDir, pattern);
  const segments = absolute.split(/[\\/]+/);
  // The literal directories before the first wildcard segment are where the walk starts.
  const firstWild = segments.findIndex((segment) => isPattern(segment));
  if (firstWild < 0) return (await isFile(absolute)) ? [absolute] : [];
  const root = segments.slice(0, firstWild).join(sep) || sep;
  const found = new Set<string>();
  await walk(root, segments.slice(firstWild), found);
  return [...found].sort();
}

async function walk(dir: string, rest: readonly string[], found: Set<string>): Promise<void> {
  const [segment, ...after] = rest;
  if (segment === undefined) return;
  if (segment === '**') {
    // Zero directories, then one more level and `**` again.
    await walk(dir, after, found);
    for (const entry of await entriesOf(dir)) {
      if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(join(dir, entry.name), rest, found);
    }
    return;
  }
  const last = after.length === 0;
  if (!isPattern(segment)) {
    const path = join(dir, segment);
    if (last) {
      if (await isFile(path)) found.add(path);
    } else {
      await walk(path, after, found);
    }
    return;
  }
  const matcher = segmentMatcher(segment);
  for (const entry of await entriesOf(dir)) {
    if (!matcher.test(entry.name)) continue;
    const path = join(dir, entry.name);
    if (last) {
      if (await isFile(path)) found.add(path);
    } else if (entry.isDirectory()) {
      await walk(path, after, found);
    }
  }
}

/** A segment pattern as a regular expression; a leading wildcard does not match a leading dot. */
export function segmentMatcher(segment: string): RegExp {
  const body = segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(segment.startsWith('.') ? `^${body}$` : `^(?!\\.)${body}$`);
}

async function entriesOf(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

async function isFile(path: string): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ?? false;
}
