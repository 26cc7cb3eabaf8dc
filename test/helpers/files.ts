// Temporary files for tests, removed when the test process ends.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'rmreplay-test-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

export function tempFile(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

export function tempPath(name: string): string {
  return join(dir, name);
}

/** A SWIM file: one line per job, tab-separated. */
export function swimText(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.join('\t')).join('\n') + '\n';
}
