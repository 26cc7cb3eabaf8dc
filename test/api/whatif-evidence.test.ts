// The evidence a what-if on an RM log is given (src/api/whatif-evidence.ts), on the fixture's small
// log (smallScenario) and a copy in which app 1 ends 10 s later: with a validation of the same kind
// stored, with none (and the commands that would make one), with and without an as-recorded run,
// and the limits the model states for each kind.

import { describe, expect, it } from 'vitest';
import { evidenceLines, ingestRmLog, replayEvidence, replayRuns, runFidelity, runValidation } from '../../src/api/index.js';
import type { ReplayRequest } from '../../src/api/index.js';
import { modelLimits } from '../../src/api/whatif-evidence.js';
import { commandLine } from '../../src/model/command-line.js';
import { recordedPreemption, Store } from '../../src/store/index.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario, smallScenarioChanged } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';


async function withLogs(work: (store: Store) => Promise<void>, baseText = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' })): Promise<void> {
  const store = await Store.open(':memory:');
  try {
    await ingestRmLog(store, { paths: [tempFile('evidence-base.log', baseText)], name: 'base' });
    const changed = renderRmLog(smallScenarioChanged(), { version: '2.7', layout: 'stock' });
    await ingestRmLog(store, { paths: [tempFile('evidence-changed.log', changed)], name: 'changed' });
    await work(store);
  } finally {
    store.close();
  }
}

/** Replays `base` as `replay` would with `request` and returns the evidence's lines, commands as rmreplay prints them. */
async function linesOf(store: Store, request: Omit<ReplayRequest, 'source'>): Promise<string[]> {
  const full = { source: { kind: 'trace', trace: 'base' } as const, ...request };
  const runs = await replayRuns(store, full);
  const evidence = await replayEvidence(store, full, runs);
  return evidence === null ? [] : evidenceLines(evidence, (args) => commandLine('rmreplay', args));
}

describe('replayEvidence', () => {
  it('quotes the stored validation of the same kind, and the as-recorded run validate stored', async () => {
    await withLogs(async (store) => {
      const validation = await runValidation(store, { trace: 'base', against: 'changed', policy: 'am-share:0.5' });
      const { appsChanged, appsChangedPredicted, meanAbsErrorPct, worstErrorPct } = validation.headline;
      const lines = await linesOf(store, { policies: ['am-share:0.3'] });
      expect(lines[0]).toBe(
        `Validated changes of this kind (AM limit): base against changed (-p am-share:0.5), ${appsChangedPredicted} of ` +
          `${appsChanged} apps that really changed predicted within 5 s or 25% ` +
          `(${((100 * appsChangedPredicted) / appsChanged).toFixed(1)}%), turnaround error mean ${meanAbsErrorPct!.toFixed(1)}%, ` +
          `worst ${worstErrorPct!.toFixed(1)}%.`,
      );
      // validate's base run is the log replayed as recorded, as fidelity would make it.
      expect(lines[1]).toMatch(new RegExp(`^As recorded \\(run ${validation.baseRunId}\\), the replay of base is off by `));
      expect(lines).toHaveLength(2);
    });
  });

  it('says no validation of the kind is stored, with commands that make one, and how to measure fidelity', async () => {
    await withLogs(async (store) => {
      await runValidation(store, { trace: 'base', against: 'changed', policy: 'am-share:0.5' });
      const lines = await linesOf(store, { nodes: 4, policies: ['max-apps:2'] });
      expect(lines[0]).toBe(
        'No validation of this kind of change (node count / hardware + admission policy) is stored in this database: ingest a ' +
          'log of the same workload recorded under the change with `--name base-changed`, then ' +
          '`rmreplay validate --trace base --against base-changed -p max-apps:2 --nodes 4`.',
      );
      expect(lines.filter((line) => line.startsWith('Locality is not modelled'))).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('An admission policy other than am-share'))).toHaveLength(1);
    });
    await withLogs(async (store) => {
      const lines = await linesOf(store, { policies: ['am-share:0.3'] });
      expect(lines[0]).toMatch(/^No validation of this kind of change \(AM limit\)/);
      expect(lines[1]).toBe('No as-recorded replay of base is stored: `rmreplay fidelity --trace base` measures how close the replay comes to the log.');
      const fidelity = await runFidelity(store, { trace: 'base' });
      expect((await linesOf(store, { policies: ['am-share:0.3'] }))[1]).toBe(
        `As recorded (run ${fidelity.runId}), the replay of base is off by ${fidelity.meanAbsErrorPct!.toFixed(1)}% per app on ` +
          `average, ${Math.max(...fidelity.apps.flatMap((a) => (a.errorPct === null ? [] : [Math.abs(a.errorPct)]))).toFixed(1)}% ` +
          `at worst (${fidelity.apps.filter((a) => a.errorPct !== null).length} of ${fidelity.apps.length} apps compared).`,
      );
    });
  });

  it('has nothing to say of a replay as recorded', async () => {
    await withLogs(async (store) => {
      expect(await linesOf(store, {})).toEqual([]);
      expect(await linesOf(store, { policies: ['as-configured'] })).toEqual([]);
    });
  });

  it('counts the preempted containers of the log, and says the what-if leaves them out', async () => {
    const text = renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }).replace(
      'preemptedNonAMContainers=0',
      'preemptedNonAMContainers=3',
    );
    await withLogs(async (store) => {
      expect(await recordedPreemption(store, 'base')).toEqual({ containers: 3, lines: 0 });
      expect(await recordedPreemption(store, 'changed')).toEqual({ containers: 0, lines: 0 });
      const lines = await linesOf(store, { policies: ['am-share:0.3'] });
      expect(lines).toContain(
        'The log records 3 preempted containers in its application summaries; rmreplay never preempts (docs/model.md 3.9, 4.8), ' +
          'so this what-if leaves preemption out.',
      );
    }, text);
  });
});

describe('the vcores a DefaultResourceCalculator log leaves out', () => {
  it('are named when the what-if weighs vcores (a switch to the FairScheduler), and not for an AM-limit change', async () => {
    // The fixture's CapacityScheduler log runs the stock DefaultResourceCalculator: its containers
    // show 1 vcore whatever was asked. The FairScheduler fits vcores on a node, so the replay's
    // 1-vcore asks may hold nothing back that the real asks would.
    await withLogs(async (store) => {
      const unrecorded = /^The log's CapacityScheduler ran the DefaultResourceCalculator, which records every container at 1 vcore/;
      expect(await linesOf(store, { schedulers: ['fair-fair'] })).toContainEqual(expect.stringMatching(unrecorded));
      expect(await linesOf(store, { policies: ['am-share:0.3'] })).not.toContainEqual(expect.stringMatching(unrecorded));
    });
  });
});

describe('modelLimits', () => {
  const none = { containers: 0, lines: 0 };
  it('states each limit for the kinds it matters to, and nothing for an AM limit on a log without preemption', () => {
    expect(modelLimits(new Set(['am-limit']), new Set(['capacity']), none)).toEqual([]);
    expect(modelLimits(new Set(['scheduler-switch']), new Set(['fair']), none)).toEqual([expect.stringMatching(/^Locality is not modelled/)]);
    expect(modelLimits(new Set(['queues']), new Set(['capacity']), none)).toEqual([expect.stringMatching(/^CapacityScheduler user limits/)]);
    expect(modelLimits(new Set(['queues']), new Set(['fair']), none)).toEqual([]);
    expect(modelLimits(new Set(['am-limit']), new Set(['fair']), { containers: 0, lines: 2 })).toEqual([
      'The log records 2 FairScheduler preemption lines; rmreplay never preempts (docs/model.md 3.9, 4.8), so this what-if leaves preemption out.',
    ]);
  });

  it("says the hosts of unmanaged AMs' tasks are guessed where the CapacityScheduler's off-switch delay reads them", () => {
    // An SLS log: 40 apps with unmanaged AMs, whatever the change; under the FairScheduler the
    // guess moves nothing (its locality delays are off by default).
    expect(modelLimits(new Set(['am-limit']), new Set(['capacity']), none, 40)).toEqual([
      expect.stringMatching(/^40 of the log's apps ran their AM outside the cluster; .* takes the expected number of distinct hosts/),
    ]);
    expect(modelLimits(new Set(['scheduler-switch']), new Set(['fair']), none, 40)).toEqual([expect.stringMatching(/^Locality is not modelled/)]);
  });

  it('says maxAMShare cannot hold back an unmanaged AM when a FairScheduler what-if changes an AM limit or queue settings', () => {
    const escapes = /^40 of the log's apps ran their AM outside the cluster, and the FairScheduler never holds such an app back for maxAMShare/;
    expect(modelLimits(new Set(['am-limit']), new Set(['fair']), none, 40)).toEqual([expect.stringMatching(escapes)]);
    expect(modelLimits(new Set(['queues']), new Set(['fair']), none, 40)).toEqual([expect.stringMatching(escapes)]);
    // Managed AMs are held back as the model does; the CapacityScheduler counts unmanaged ones.
    expect(modelLimits(new Set(['am-limit']), new Set(['fair']), none, 0)).toEqual([]);
    expect(modelLimits(new Set(['am-limit']), new Set(['capacity']), none, 40)).not.toContainEqual(expect.stringMatching(escapes));
  });
});
