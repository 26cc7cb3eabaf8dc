// File patterns, one implementation for `ingest rmlog` and the pipeline's configuration:
// tinyglobby (`*`, `?`, `**`, `[abc]`, `{a,b}`; no extglobs, so `(` is a character), files only, so a pattern that
// also matches a directory (`'logs/*'`) never hands a directory to a reader. As in a shell, a
// wildcard does not match a leading dot. Links are followed (a link to a log is a log); a file
// reached twice (a link cycle, a link beside its target) is taken once.

import { realpathSync } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import { escapePath, glob } from 'tinyglobby';

/** Whether a pattern has anything to expand (otherwise it names one file). */
export function isPattern(pattern: string): boolean {
  return WILDCARD.test(pattern);
}

const WILDCARD = /[*?[{]/;

/**
 * The files a pattern matches, absolute and sorted; relative patterns are taken from `baseDir`.
 * A directory that cannot be read matches nothing.
 */
export async function expandPattern(pattern: string, baseDir: string): Promise<string[]> {
  const absolute = isAbsolute(pattern) ? pattern : resolve(baseDir, pattern);
  // The directories before the first wildcard are literal: `/data/logs (old)/*.log` is a path.
  const segments = absolute.split(sep);
  const firstWild = segments.findIndex((segment) => isPattern(segment));
  const literal = firstWild < 0 ? segments : segments.slice(0, firstWild);
  const escaped = [escapePath(literal.join(sep)), ...(firstWild < 0 ? [] : segments.slice(firstWild))].join(sep);
  const matches = await glob(escaped, {
    onlyFiles: true,
    absolute: true,
    dot: false,
    followSymbolicLinks: true,
    expandDirectories: false,
    extglob: false,
  });
  matches.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  // Each match's target, resolved synchronously (the same libc realpath as the promise form):
  // 10,000 matches awaited one at a time took about 0.9 s, synchronously about 0.2 s.
  const byTarget = new Map<string, string>();
  for (const path of matches) {
    const target = realTarget(path);
    if (!byTarget.has(target)) byTarget.set(target, path);
  }
  return [...byTarget.values()].sort();
}

/** The path with every link resolved, or the path itself if that fails (it vanished since the glob). */
function realTarget(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
