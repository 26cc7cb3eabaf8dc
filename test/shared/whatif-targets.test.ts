// The targets of issue 24 on the four what-if pairs of ../shared/traces/whatif (SOURCE.md), end
// to end through the API: each base log replayed under its pair's change and compared with the
// log recorded under it, and each of the six logs replayed as recorded.
//   - at least 90% of the apps that really changed (by more than 5 s) are predicted (within 5 s or 25%);
//   - the mean per-app turnaround error of the predicted run against the changed log is 5% or less;
//   - as recorded, each log's mean per-app error is 3.5% or less and its worst app 10% or less.
// A target the model does not meet yet is listed in SHORT_OF with the figure it stands at, and
// its test is expected to fail (it.fails): it turns red when the model reaches the target, so the
// entry must then go. Nothing here is fitted: the figures are what the model predicts.

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestRmLog, runFidelity, runValidation } from '../../src/api/index.js';
import type { FidelityResult, ValidationResult } from '../../src/api/index.js';
import { Store } from '../../src/store/index.js';
import { tempPath } from '../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE, SHARED_DIR } from '../helpers/shared.js';

const WHATIF_DIR = join(SHARED_DIR, 'traces', 'whatif');
const RUNS = ['A', 'M50', 'N30', 'Q2', 'Q2-5050', 'F1'] as const;
const conf = (run: string, file: string): string => join(WHATIF_DIR, `sls-${run}`, 'conf', file);

const PAIRS = [
  { base: 'A', changed: 'M50', change: { policy: 'am-share:0.5' } },
  { base: 'A', changed: 'N30', change: { nodes: 30 } },
  { base: 'Q2', changed: 'Q2-5050', change: { capacityScheduler: conf('Q2-5050', 'capacity-scheduler.xml') } },
  {
    base: 'A',
    changed: 'F1',
    change: { scheduler: 'fair-fair', fairScheduler: conf('F1', 'fair-scheduler.xml'), yarnSite: conf('F1', 'yarn-site.xml') },
  },
] as const;

/** Targets not met yet, and where the model stands: `pair or log: target` (none since stop 38). */
const SHORT_OF: ReadonlySet<string> = new Set<string>([]);

const MIN_PREDICTED_SHARE = 0.9;
const MAX_MEAN_ERROR_PCT = 5;
const MAX_FIDELITY_MEAN_PCT = 3.5;
const MAX_FIDELITY_WORST_PCT = 10;

describe.skipIf(!SHARED_AVAILABLE)(`issue 24 targets on the whatif pairs${NEEDS_SHARED}`, () => {
  const validations = new Map<string, ValidationResult>();
  const fidelity = new Map<string, FidelityResult>();

  beforeAll(async () => {
    const store = await Store.open(tempPath('whatif-targets.duckdb'));
    try {
      for (const run of RUNS) {
        await ingestRmLog(store, { paths: [join(WHATIF_DIR, `sls-${run}`, `sls-rm-${run}.log`)], name: `sls-${run}` });
        fidelity.set(run, await runFidelity(store, { trace: `sls-${run}` }));
      }
      for (const pair of PAIRS) {
        const result = await runValidation(store, { trace: `sls-${pair.base}`, against: `sls-${pair.changed}`, ...pair.change });
        validations.set(`${pair.base}->${pair.changed}`, result);
      }
    } finally {
      store.close();
    }
  }, 600_000);

  const check = (name: string, body: () => void): void => {
    (SHORT_OF.has(name) ? it.fails : it)(name, body);
  };

  for (const pair of PAIRS) {
    const key = `${pair.base}->${pair.changed}`;
    check(`${key}: predicted share`, () => {
      const { headline } = validations.get(key)!;
      expect(headline.appsChanged).toBeGreaterThan(0);
      expect(headline.predictedShare!).toBeGreaterThanOrEqual(MIN_PREDICTED_SHARE);
    });
    check(`${key}: mean turnaround error`, () => {
      expect(validations.get(key)!.headline.meanAbsErrorPct!).toBeLessThanOrEqual(MAX_MEAN_ERROR_PCT);
    });
  }

  for (const run of RUNS) {
    check(`${run}: mean error as recorded`, () => {
      const result = fidelity.get(run)!;
      expect(result.apps).toHaveLength(40);
      expect(result.meanAbsErrorPct!).toBeLessThanOrEqual(MAX_FIDELITY_MEAN_PCT);
    });
    check(`${run}: worst app as recorded`, () => {
      const worst = Math.max(...fidelity.get(run)!.apps.map((a) => Math.abs(a.errorPct ?? Infinity)));
      expect(worst).toBeLessThanOrEqual(MAX_FIDELITY_WORST_PCT);
    });
  }
});
