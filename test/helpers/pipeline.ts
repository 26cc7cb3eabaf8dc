// What the pipeline tests share: a configuration over some RM logs, and the command run as a
// user runs it, in a process of its own.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { PipelineResult } from '../../src/api/index.js';

export const BIN = fileURLToPath(new URL('../../bin/rmreplay.js', import.meta.url));

export function expectBuilt(): void {
  expect(existsSync(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url))), 'run `npm run build` first').toBe(true);
}

/** Two admission policies on each trace: what a nightly comparison might hold. */
export const POLICIES = ['as-configured', 'none'];

/** Write `dir/pipeline.json` over these traces (name -> log files or patterns); returns its path. */
export function writePipelineConfig(dir: string, traces: Record<string, string[]>, extra: Record<string, unknown> = {}): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'pipeline.json');
  const config = {
    database: 'rmreplay.duckdb',
    traces: Object.entries(traces).map(([name, rmlogs]) => ({ name, rmlogs })),
    compare: [{ policies: POLICIES }],
    reports: { dir: 'reports', names: ['comparison', 'completion_rate'], keepDays: 7 },
    ...extra,
  };
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** `rmreplay ARGS` in a process of its own; `onStdout` sees its output so far as it comes. */
export function runCli(args: readonly string[], cwd: string, onStdout?: (soFar: string) => void): Promise<CliRun> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    onStdout?.(stdout);
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The JSON a `pipeline --json` printed. */
export function resultOf(run: CliRun): PipelineResult {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as PipelineResult;
}

export const filesRead = (result: PipelineResult): number => result.ingested.reduce((sum, i) => sum + i.filesRead, 0);
export const runsReplayed = (result: PipelineResult): number => result.replayed.reduce((sum, r) => sum + r.ran, 0);
export const runsSkipped = (result: PipelineResult): number => result.replayed.reduce((sum, r) => sum + r.skipped, 0);
