// A child process that holds a DuckDB database file open (DuckDB's own write lock) for a while,
// as another rmreplay or a duckdb shell would.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Resolves once the child holds the database; it lets go after `holdMs` and exits. */
export async function holdDatabase(path: string, holdMs: number): Promise<ChildProcess> {
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(${JSON.stringify(path)});
    process.stdout.write('held\\n');
    setTimeout(() => { instance.closeSync(); process.exit(0); }, ${holdMs});
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the holder exited (${code}) before holding ${path}`)));
  });
  return child;
}

export function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.on('exit', () => resolve()));
}
