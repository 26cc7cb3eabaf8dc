// `rmreplay validate` on the AM-limit what-if of ../shared/traces/whatif (SOURCE.md): sls-A
// replayed under -p am-share:0.5 against sls-M50, through the command line. The real changes are
// asserted against SOURCE.md's figures; the predictions are not (the model is the thing being
// validated, and it changes): only that there is one for every app.

import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import type { ValidationResult } from '../../src/api/index.js';
import type { CliContext } from '../../src/cli/context.js';
import { main } from '../../src/cli/main.js';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE, SHARED_DIR } from '../helpers/shared.js';

const WHATIF_DIR = join(SHARED_DIR, 'traces', 'whatif');

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const ctx: CliContext = { api, openStore: (path) => Store.open(path), stdout, stderr, env: {} };
  const code = await main(argv, ctx);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe.skipIf(!SHARED_AVAILABLE)(`validate on the whatif pairs${NEEDS_SHARED}`, () => {
  it('sls-A under -p am-share:0.5 against sls-M50: the real changes SOURCE.md gives, and a prediction for every app', async () => {
    const db = tempPath('validate-whatif.duckdb');
    for (const name of ['A', 'M50']) {
      const ingested = await run(['--db', db, 'ingest', 'rmlog', join(WHATIF_DIR, `sls-${name}`, `sls-rm-${name}.log`), '--name', `sls-${name}`]);
      expect(ingested.code, ingested.stderr).toBe(0);
    }
    const validated = await run(['--db', db, 'validate', '--trace', 'sls-A', '--against', 'sls-M50', '-p', 'am-share:0.5', '--json']);
    expect(validated.code, validated.stderr).toBe(0);
    const result = JSON.parse(validated.stdout) as ValidationResult;
    expect(result).toMatchObject({ trace: 'sls-A', changedTrace: 'sls-M50', change: { policy: 'am-share:0.5' }, policy: 'am-share:0.5' });
    expect(result.apps).toHaveLength(40);
    // App N is job N in both runs: the app ids end in the same sequence number.
    for (const app of result.apps) {
      const seq = String(app.appIndex + 1).padStart(4, '0');
      expect(app.baseAppId.endsWith(`_${seq}`) && app.changedAppId.endsWith(`_${seq}`), app.baseAppId).toBe(true);
      expect([app.recordedBase.state, app.recordedChanged.state, app.replayedBase.state, app.replayedChanged.state]).toEqual(
        Array<string>(4).fill('FINISHED'),
      );
      expect(app.predictedChangeMs).not.toBeNull();
      expect(app.turnaroundErrorPct).not.toBeNull();
    }

    // SOURCE.md: apps 35, 37 and 38 finish 27-37 s sooner in M50, apps 17, 36, 34 and 31 6-13 s
    // sooner, and apps 29 and 32 about 6 s later; no other app moves by more than 5 s.
    const realS = (n: number): number => result.apps[n - 1]!.realChangeMs! / 1000;
    for (const n of [35, 37, 38]) {
      expect(realS(n), `app ${n}`).toBeGreaterThanOrEqual(-37.5);
      expect(realS(n), `app ${n}`).toBeLessThanOrEqual(-26.5);
    }
    for (const n of [17, 36, 34, 31]) {
      expect(realS(n), `app ${n}`).toBeGreaterThanOrEqual(-13.5);
      expect(realS(n), `app ${n}`).toBeLessThanOrEqual(-5.5);
    }
    for (const n of [29, 32]) {
      expect(realS(n), `app ${n}`).toBeGreaterThan(5);
      expect(realS(n), `app ${n}`).toBeLessThan(7);
    }
    expect(result.apps.filter((a) => a.reallyChanged).map((a) => a.appIndex + 1)).toEqual([17, 29, 31, 32, 34, 35, 36, 37, 38]);
    expect(result.headline.appsChanged).toBe(9);
    // Makespan is the same in every run (SOURCE.md): 03:57:32.584 -> 04:03:24.071 in A, 04:41:23.636 -> 04:47:15.124 in M50.
    expect(result.headline.makespans).toMatchObject({ recordedBaseMs: 351_487, recordedChangedMs: 351_488 });
    expect(result.headline.predictedShare).not.toBeNull();

    // The same comparison, stored, reads back through its query.
    const report = await run(['--db', db, '--wide', 'report', 'validation', '--no-write']);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/^ +1 +sls-A +sls-M50 +35 +139\.0 +104\.0 +-35\.0 /m);
  });
});
