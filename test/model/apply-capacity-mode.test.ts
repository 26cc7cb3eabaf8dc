// The capacity what-if on a cluster, and what it changes in a replay. The replay's timeline
// follows test/replay/engine.test.ts: one node heartbeating at 0, 1000, 2000 ... ms and at once
// when a container on it ends (one container per heartbeat), AMs registering 1000 ms after their
// container is allocated, and at one instant releases (with their out-of-band heartbeats) before
// AM registrations and asks, before node heartbeats.

import { describe, expect, it } from 'vitest';
import { applyCapacityMode, resolveCapacityMode } from '../../src/model/apply-capacity-mode.js';
import { CapacityModeError, parseCapacityMode } from '../../src/model/capacity-mode.js';
import { clusterCapacity, parseCluster } from '../../src/model/cluster.js';
import type { Cluster, ClusterInput } from '../../src/model/cluster.js';
import { normalizeRequest } from '../../src/model/normalize.js';
import { parseAdmissionPolicy } from '../../src/policies/admission/index.js';
import { schedulerKind } from '../../src/policies/scheduling/index.js';
import { replay } from '../../src/replay/engine.js';
import { mostHeld } from '../helpers/containers.js';
import { app, stage } from '../helpers/workloads.js';

/** Cassales' testbed: four machines of 48303 MB / 24 cores behind stock NodeManagers. */
function cassales(extra: Partial<ClusterInput> = {}): Cluster {
  return parseCluster({
    name: 'cassales',
    nodeGroups: [{ name: 'worker', count: 4, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 48_303, cores: 24 } }],
    ...extra,
  });
}

describe('applyCapacityMode', () => {
  it('reproduces the thesis: stock, the collector\'s hardware, and context-aware limits', () => {
    const stock = applyCapacityMode(cassales(), parseCapacityMode('configured'));
    expect(clusterCapacity(stock)).toEqual({ memoryMb: 32_768, vcores: 32 });
    expect(stock.scheduler.minimumAllocation).toEqual({ memoryMb: 1024, vcores: 1 });
    expect(stock.scheduler.maximumAllocation).toEqual({ memoryMb: 8192, vcores: 32 });

    const hardware = applyCapacityMode(cassales(), parseCapacityMode('hardware'));
    expect(hardware.nodeGroups[0]).toMatchObject({ memoryMb: 48_303, vcores: 24 });
    expect(clusterCapacity(hardware)).toEqual({ memoryMb: 193_212, vcores: 96 });
    expect(hardware.scheduler).toEqual(stock.scheduler);

    const contextAware = applyCapacityMode(cassales(), parseCapacityMode('context-aware'));
    expect(clusterCapacity(contextAware)).toEqual({ memoryMb: 193_212, vcores: 96 });
    expect(contextAware.scheduler.minimumAllocation).toEqual({ memoryMb: 4830, vcores: 2 });
    expect(contextAware.scheduler.maximumAllocation).toEqual({ memoryMb: 24_151, vcores: 12 });
    // A stock 1024-MB map is normalized up to the new minimum.
    expect(normalizeRequest({ memoryMb: 1024, vcores: 1 }, contextAware.scheduler, schedulerKind('capacity').normalization(contextAware.scheduler))).toEqual({ ok: true, granted: { memoryMb: 4830, vcores: 1 } });
  });

  it('leaves the cluster as it is under configured', () => {
    const cluster = cassales({ capacityMode: 'hardware' });
    expect(applyCapacityMode(cluster, { kind: 'configured' })).toEqual(cluster);
    expect(applyCapacityMode(cluster, { kind: 'configured' })).toEqual(cassales({ capacityMode: 'hardware' }));
  });

  it('names the result after the mode and keeps the increment allocation and the hardware', () => {
    const cluster = cassales({ scheduler: { type: 'fair', incrementAllocation: { memoryMb: 512, vcores: 1 } } });
    expect(applyCapacityMode(cluster, parseCapacityMode('hardware')).name).toBe('cassales (hardware)');
    const custom = applyCapacityMode(cluster, parseCapacityMode('context-aware:min=0.05'));
    expect(custom.name).toBe('cassales (context-aware:min=0.05)');
    expect(custom.description).toContain('minimum and maximum allocation are 0.05 and 0.125');
    expect(custom.scheduler.incrementAllocation).toEqual({ memoryMb: 512, vcores: 1 });
    expect(custom.nodeGroups[0]!.hardware).toEqual({ memoryMb: 48_303, cores: 24 });
    // Under the FairScheduler a task ask is raised to the minimum (9660 MB, 4 vcores), then
    // rounded up to the 512-MB increment.
    expect(normalizeRequest({ memoryMb: 1024, vcores: 1 }, custom.scheduler, schedulerKind('fair').normalization(custom.scheduler))).toEqual({ ok: true, granted: { memoryMb: 9728, vcores: 4 } });
  });

  it('refuses a mode that needs hardware on a node group that states none, naming the group', () => {
    const mixed = parseCluster({
      name: 'mixed',
      nodeGroups: [
        { name: 'big', count: 2, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 65_536, cores: 32 } },
        { name: 'small', count: 2, memoryMb: 8192, vcores: 8 },
      ],
    });
    for (const spec of ['hardware', 'context-aware']) {
      const apply = (): Cluster => applyCapacityMode(mixed, parseCapacityMode(spec));
      expect(apply).toThrow(CapacityModeError);
      expect(apply).toThrow(
        `capacity mode ${spec} needs every node group's hardware, but node group small of cluster mixed states none: ` +
          'add "hardware": { "memoryMb": ..., "cores": ... } to it in the cluster file (--cluster FILE)',
      );
    }
    expect(applyCapacityMode(mixed, parseCapacityMode('configured'))).toBe(mixed);
  });
});

describe('resolveCapacityMode', () => {
  it('applies the given mode, else the cluster file\'s, else configured, and drops the file\'s request', () => {
    const plain = cassales();
    expect(resolveCapacityMode(plain, undefined)).toBe(plain);
    const asking = cassales({ capacityMode: 'context-aware' });
    expect(asking.capacityMode).toEqual({ kind: 'context-aware', minShare: 0.025, maxShare: 0.125 });
    const fromFile = resolveCapacityMode(asking, undefined);
    expect(fromFile.name).toBe('cassales (context-aware)');
    expect(fromFile).not.toHaveProperty('capacityMode');
    const overridden = resolveCapacityMode(asking, { kind: 'configured' });
    expect(overridden).toEqual(plain);
    expect(overridden).not.toHaveProperty('capacityMode');
    expect(resolveCapacityMode(asking, { kind: 'hardware' }).name).toBe('cassales (hardware)');
  });
});

describe('a replay on one node that advertises half its machine', () => {
  it('runs twice as many 1024-MB containers at once when the node advertises its hardware', () => {
    // One node advertising 8192 MB / 8 vcores on a machine of 16384 MB / 16 cores. Two apps at 0,
    // each an AM of 1024 MB and 7 maps of 1024 MB / 20 s; no admission control.
    //
    // configured (8 slots): 0: app0's AM. 1000: app0 registers and asks; its maps go first
    // (FIFO, before app1's AM), one a heartbeat, 1000..7000: the node is full with 8 containers.
    // 21000: app0's first map ends; its out-of-band heartbeat places app1's AM. 22000: app0's
    // second map ends, but its heartbeat comes before app1 registers and asks at that instant;
    // the next heartbeat is at 23000. So app1's maps at 23000, 24000, 25000, 26000, two at 27000
    // (app0's last map ends, app0 ends and its AM's release heartbeats again) and 28000: app0
    // ends at 27000, app1 at 28000 + 20000 = 48000.
    //
    // hardware (16 slots): app0 the same (AM 0, maps 1000..7000, ends 27000); app1's AM at 8000,
    // it registers at 9000 and its maps go at 9000..15000 into free space: 16 containers held
    // at once from 15000, and app1 ends at 15000 + 20000 = 35000.
    const cluster = parseCluster({
      name: 'half',
      nodeGroups: [{ name: 'n', count: 1, memoryMb: 8192, vcores: 8, hardware: { memoryMb: 16_384, cores: 16 } }],
    });
    const apps = [0, 1].map((i) => app(`app${i}`, 0, [stage('map', 7, 20_000)]));
    const run = (mode: string) =>
      replay({
        workload: { name: 'two-apps', apps },
        cluster: applyCapacityMode(cluster, parseCapacityMode(mode)),
        admission: parseAdmissionPolicy('none'),
        options: { heartbeatPhasesMs: [0], recordContainers: true },
      });

    const configured = run('configured');
    expect(configured.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual([
      [0, 27_000],
      [21_000, 48_000],
    ]);
    expect(mostHeld(configured.containers!)).toBe(8);

    const hardware = run('hardware');
    expect(hardware.apps.map((a) => [a.amStartMs, a.finishMs])).toEqual([
      [0, 27_000],
      [8000, 35_000],
    ]);
    expect(mostHeld(hardware.containers!)).toBe(16);
    expect(hardware.summary.makespanMs).toBe(35_000);
    expect(configured.summary.makespanMs).toBe(48_000);
  });
});
