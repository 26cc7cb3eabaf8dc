// The recorded timeline's container facts (src/store/recorded-timeline.ts) mirror the rules of
// the rm_containers view, written apart for speed: on every kind of fixture log, each container
// it holds resources for has the view's app, attempt, AM flag, node and size, its allocated span
// starts at the view's allocation, and no container the view shows allocated is left out.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { AM_GAPS_LOG } from '../fixtures/rmlog/am-gaps.js';
import { amDeadlockScenario } from '../fixtures/rmlog/am-deadlock.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import type { RenderOptions } from '../fixtures/rmlog/render.js';
import {
  decommissionScenario,
  fullClusterReduceScenario,
  killedAppScenario,
  lateNodesScenario,
  lostNodeScenario,
  rmRestartScenarios,
  smallScenario,
} from '../fixtures/rmlog/scenarios.js';
import type { FixtureScenario } from '../fixtures/rmlog/scenario.js';
import { tempFile } from '../helpers/files.js';
import { mirrorMismatches, NO_MISMATCH } from '../helpers/timeline-mirror.js';
import { withStore } from '../helpers/store.js';

const stock = (version: RenderOptions['version']): RenderOptions => ({ version, layout: 'stock' });
const [restartKeeping, restartLosing] = rmRestartScenarios();
const SCENARIOS: readonly (readonly [string, FixtureScenario, RenderOptions])[] = [
  ['small CS 2.2', smallScenario('capacity'), stock('2.2')],
  ['small CS 2.7', smallScenario('capacity'), stock('2.7')],
  ['small CS 3.4', smallScenario('capacity'), stock('3.4')],
  ['small FS 2.8', smallScenario('fair'), stock('2.8')],
  ['small FS 3.1', smallScenario('fair'), stock('3.1')],
  ['full cluster CS 2.8', fullClusterReduceScenario('capacity'), stock('2.8')],
  ['full cluster FS 2.10', fullClusterReduceScenario('fair'), stock('2.10')],
  ['nodes registering late CS', lateNodesScenario('capacity'), stock('2.8')],
  ['nodes registering late FS', lateNodesScenario('fair'), stock('2.8')],
  ['a node lost', lostNodeScenario(), stock('2.8')],
  ['a node decommissioned gracefully', decommissionScenario(), stock('2.8')],
  ['RM restart, work kept', restartKeeping, stock('2.8')],
  ['RM restart, work lost', restartLosing, stock('2.8')],
  ['a killed app', killedAppScenario(), stock('2.8')],
  ['an AM deadlock', amDeadlockScenario(), stock('2.8')],
];

describe('the recorded timeline mirrors rm_containers', () => {
  it.each(SCENARIOS)('%s', async (name, scenario, options) => {
    const path = tempFile(`mirror-${name.replace(/\W+/g, '-')}.log`, renderRmLog(scenario, options));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'mirror' });
      const found = await mirrorMismatches(store, 'mirror');
      expect(found.spans).toBeGreaterThan(0);
      expect(found.mismatches).toEqual(NO_MISMATCH);
    });
  });

  it.each([
    ['full cluster CS 2.8', fullClusterReduceScenario('capacity'), stock('2.8')],
    ['small FS 2.8', smallScenario('fair'), stock('2.8')],
  ] as const)('%s without its MasterContainer lines (the AM found by priority or first assignment)', async (name, scenario, options) => {
    const log = renderRmLog(scenario, options).split('\n').filter((line) => !line.includes('MasterContainer')).join('\n');
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile(`mirror-no-master-${name.replace(/\W+/g, '-')}.log`, log)], name: 'mirror' });
      const found = await mirrorMismatches(store, 'mirror');
      expect(found.spans).toBeGreaterThan(0);
      expect(found.mismatches).toEqual(NO_MISMATCH);
    });
  });

  it('on a log without MasterContainer lines nor priorities, with id gaps and an unmanaged AM', async () => {
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile('mirror-gaps.log', AM_GAPS_LOG)], name: 'gaps' });
      const found = await mirrorMismatches(store, 'gaps');
      // Five containers: app 1's AM (number 2) and tasks 5 and 7; app 2's two tasks.
      expect(found.spans).toBe(5);
      expect(found.mismatches).toEqual(NO_MISMATCH);
    });
  });
});
