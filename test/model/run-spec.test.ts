// canonicalJson must write exactly what JSON.stringify with sorted keys writes: stored spec
// hashes from earlier versions are compared with new ones, so a sweep can skip runs it has.

import { describe, expect, it } from 'vitest';
import { canonicalJson, runSpecSha256 } from '../../src/model/run-spec.js';
import type { RunSpec } from '../../src/model/run-spec.js';
import { findScenario, resolveParameters } from '../../src/scenarios/index.js';
import { applySchedulingPolicy } from '../../src/policies/scheduling/index.js';

/** The definition canonicalJson had before it was written out by hand. */
function reference(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return v;
  });
}

function specOf(scenarioName: string, scheduler: string): RunSpec {
  const scenario = findScenario(scenarioName);
  const built = scenario.build(resolveParameters(scenario, {}), 1);
  return {
    trace: { kind: 'scenario', scenario: scenarioName, parameters: { b: 1, a: 'x' } },
    traceLabel: scenarioName,
    cluster: applySchedulingPolicy(built.cluster, scheduler, built.workload.apps.map((app) => app.queue)).cluster,
    scheduler,
    queueStructure: 'default',
    admission: { spec: 'marp-feedback', parameters: { low: 0.9, delayS: 10 } },
    seed: 3,
    appTimeoutMs: null,
    sampleIntervalMs: 10_000,
    horizonMs: null,
    recordContainers: false,
  };
}

describe('canonicalJson', () => {
  it('writes run descriptions exactly as JSON.stringify with sorted keys does', () => {
    for (const name of ['terasort-batch', 'mixed-spc', 'marp-swim', 'cassales-terasort']) {
      for (const scheduler of ['capacity-fifo', 'fair-drf']) {
        const spec = specOf(name, scheduler);
        expect(canonicalJson(spec)).toBe(reference(spec));
      }
    }
  });

  it('writes the awkward values JSON.stringify writes', () => {
    const values: unknown[] = [
      { z: 1, a: [3, undefined, () => 1, NaN, -0, 'é"\\n'], m: { y: null, x: undefined, f: () => 1 }, '10': 1, '9': 2 },
      [{ b: 1, a: 2 }],
      'text',
      12.5,
      null,
      { date: new Date(0), typed: Float64Array.of(1, 2), nested: { toJSON: () => ({ b: 2, a: 1 }) } },
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
  });

  it('writes a shared object once with a cache, and the same bytes as without', () => {
    const spec = specOf('terasort-batch', 'capacity-fifo');
    const cache = new WeakMap<object, string>();
    const first = runSpecSha256(spec, cache);
    expect(cache.get(spec.cluster)).toBe(reference(spec.cluster));
    const other = { ...spec, seed: 4 };
    expect(runSpecSha256(other, cache)).toBe(runSpecSha256(other));
    expect(first).toBe(runSpecSha256(spec));
  });
});
