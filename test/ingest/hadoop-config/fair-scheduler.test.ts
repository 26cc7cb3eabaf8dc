import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_CONTEXT,
  hasPlacementPolicy,
  importFairScheduler,
  parseAllocationFile,
} from '../../../src/ingest/hadoop-config/index.js';
import type { ImportContext } from '../../../src/ingest/hadoop-config/index.js';
import { queueConfig as queue } from '../../../src/model/queues.js';
import { UNBOUNDED } from '../../../src/model/resources.js';

const fixtureText = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/hadoop-config/${name}`, import.meta.url)), 'utf8');

const FAIR: ImportContext = { ...DEFAULT_CONTEXT, schedulerType: 'fair' };


const importText = (text: string, context: ImportContext = FAIR) =>
  importFairScheduler(parseAllocationFile(text, 'fair-scheduler.xml'), 'fair-scheduler.xml', { context });

const allocations = (body: string): string => `<?xml version="1.0"?>\n<allocations>\n${body}\n</allocations>\n`;

describe('importFairScheduler', () => {
  it('imports DRF as the default policy and two weighted queues with shares and AM limits exactly', () => {
    const imported = importText(fixtureText('fair-scheduler.xml'));
    expect(imported.fair).toEqual({
      defaultQueueSchedulingPolicy: 'drf',
      queueMaxAmShareDefault: 0.4,
      userAsDefaultQueue: false,
      allowUndeclaredPools: false,
    });
    expect(imported.queues).toEqual([
      queue('analytics', {
        weight: 3,
        minResources: { memoryMb: 8192, vcores: 4 },
        maxResources: { memoryMb: 65_536, vcores: 32 },
        maxAmShare: 0.3,
      }),
      queue('adhoc', {
        weight: 1,
        minResources: { memoryMb: 4096, vcores: 2 },
        maximumCapacityPercent: 50,
        maxAmShare: 0.5,
        maxRunningApps: 20,
        schedulingPolicy: 'fair',
      }),
    ]);
    expect(imported.notes).toEqual([]);
  });

  it('judges every element, in file order', () => {
    const imported = importText(fixtureText('fair-scheduler.xml'));
    expect(imported.findings.map((f) => [f.line, f.property, f.kind])).toEqual([
      [4, 'defaultQueueSchedulingPolicy', 'used'],
      [5, 'queueMaxAMShareDefault', 'used'],
      [8, 'queue[root.analytics]/weight', 'used'],
      [9, 'queue[root.analytics]/minResources', 'used'],
      [10, 'queue[root.analytics]/maxResources', 'used'],
      [11, 'queue[root.analytics]/maxAMShare', 'used'],
      [12, 'queue[root.analytics]/aclSubmitApps', 'ignored'],
      [16, 'queue[root.adhoc]/weight', 'used'],
      [17, 'queue[root.adhoc]/minResources', 'used'],
      [18, 'queue[root.adhoc]/maxResources', 'used'],
      [19, 'queue[root.adhoc]/maxAMShare', 'used'],
      [20, 'queue[root.adhoc]/maxRunningApps', 'used'],
      [21, 'queue[root.adhoc]/schedulingPolicy', 'used'],
      [24, 'queuePlacementPolicy', 'used'],
    ]);
    expect(imported.findings.find((f) => f.property === 'queuePlacementPolicy')?.value).toBe('specified(create=false), default');
  });

  it('reports preemption, odd placement rules, root limits and unknown elements', () => {
    const imported = importText(fixtureText('unsupported-fair-scheduler.xml'), { ...FAIR, fairPreemption: null });
    expect(imported.findings.filter((f) => f.kind !== 'used').map((f) => [f.property, f.kind])).toEqual([
      ['queue[root.etl]/maxResources', 'unsupported'],
      ['queue[root.etl]/fairSharePreemptionTimeout', 'unsupported'],
      ['queue[root.etl.nightly]/maxChildResources', 'unsupported'],
      ['queue[root.users]@type', 'unsupported'],
      ['defaultMinSharePreemptionTimeout', 'unsupported'],
      ['queuePlacementPolicy', 'unsupported'],
      ['turboMode', 'unknown'],
    ]);
    const reason = (property: string): string | undefined => imported.findings.find((f) => f.property === property)?.reason;
    expect(reason('queue[root.etl]/fairSharePreemptionTimeout')).toBe(
      'preemption is not modelled: containers are never preempted (if yarn.scheduler.fair.preemption is true; yarn-site.xml was not given)',
    );
    expect(reason('queue[root.etl]/maxResources')).toBe(
      'different percentages for memory and CPU are not modelled: the replay uses the memory one, 40% of the cluster, for both',
    );
    expect(imported.fair).toEqual({
      rootSchedulingPolicy: 'drf',
      userMaxApps: { alice: 3 },
      userMaxAppsDefault: 5,
      queueMaxAppsDefault: 8,
    });
    expect(imported.findings.find((f) => f.property === 'queueMaxAppsDefault')?.kind).toBe('used');
    // root's own limit wins over queueMaxAppsDefault for root; queues created at submission get it.
    expect(imported.rootMaxRunningApps).toBe(100);
    // 20% of the cluster under a parent capped at 40% is 50% of the parent; queueMaxAppsDefault fills maxRunningApps.
    expect(imported.queues).toEqual([
      queue('etl', {
        maximumCapacityPercent: 40,
        maxRunningApps: 8,
        queues: [queue('nightly', { maximumCapacityPercent: 50, maxRunningApps: 8 })],
      }),
      queue('users', { maxRunningApps: 8 }),
    ]);
  });

  it('ignores preemption settings when yarn-site.xml leaves preemption off', () => {
    const imported = importText(fixtureText('unsupported-fair-scheduler.xml'), FAIR);
    expect(imported.findings.find((f) => f.property === 'defaultMinSharePreemptionTimeout')?.kind).toBe('ignored');
  });

  it('reads legacy pools, class-name policies, maxAMShare above 1, name=value resources with a gap, and the default max resources', () => {
    const imported = importText(
      allocations(
        [
          '  <queueMaxResourcesDefault>memory-mb=32768, vcores=16</queueMaxResourcesDefault>',
          '  <pool name="legacy">',
          '    <schedulingMode>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FifoPolicy</schedulingMode>',
          '    <maxAMShare>1.5</maxAMShare>',
          '  </pool>',
          '  <queue name="big">',
          '    <maxResources>memory-mb=65536</maxResources>',
          '    <maxAMShare>-1</maxAMShare>',
          '  </queue>',
          '  <queuePlacementPolicy><rule name="specified"/><rule name="user"/><rule name="default"/></queuePlacementPolicy>',
        ].join('\n'),
      ),
    );
    expect(imported.queues).toEqual([
      queue('legacy', { schedulingPolicy: 'fifo', maxAmShare: 1, maxResources: { memoryMb: 32_768, vcores: 16 } }),
      queue('big', { maxResources: { memoryMb: 65_536, vcores: UNBOUNDED }, maxAmShare: -1 }),
    ]);
    expect(imported.fair).toEqual({ userAsDefaultQueue: true, allowUndeclaredPools: true });
    expect(imported.findings.find((f) => f.property === 'queueMaxResourcesDefault')?.reason).toBe(
      'applied to root.legacy; queues created at submission (root.<user>) do not get it',
    );
  });

  it('keeps the last of a repeated element and reports the earlier one', () => {
    const imported = importText(allocations('  <queue name="a">\n    <weight>2</weight>\n    <weight>5</weight>\n  </queue>'));
    expect(imported.queues).toEqual([queue('a', { weight: 5 })]);
    expect(imported.findings.map((f) => [f.line, f.kind, f.reason])).toEqual([
      [4, 'ignored', 'set again at line 5; the last one wins'],
      [5, 'used', 'applied'],
    ]);
  });

  it('reads per-user running-app limits: userMaxAppsDefault and <user> elements, the last one winning', () => {
    const imported = importText(
      allocations(
        [
          '  <user name="alice"><maxRunningApps>3</maxRunningApps></user>',
          '  <userMaxAppsDefault>5</userMaxAppsDefault>',
          '  <user name="bob"><maxRunningApps>1</maxRunningApps></user>',
          '  <user name="alice"><maxRunningApps>2</maxRunningApps></user>',
          '  <user><maxRunningApps>9</maxRunningApps></user>',
        ].join('\n'),
      ),
    );
    expect(imported.fair.userMaxApps).toEqual({ alice: 2, bob: 1 });
    expect(imported.fair.userMaxAppsDefault).toBe(5);
    expect(imported.findings.map((f) => [f.line, f.property, f.kind, f.reason])).toEqual([
      [3, 'user[alice]/maxRunningApps', 'ignored', 'set again for alice at line 6; the last one wins'],
      [4, 'userMaxAppsDefault', 'used', 'applied'],
      [5, 'user[bob]/maxRunningApps', 'used', 'applied'],
      [6, 'user[alice]/maxRunningApps', 'used', 'applied'],
      [7, 'user[]/maxRunningApps', 'ignored', 'a user element without a name matches no user'],
    ]);
  });

  it('knows whether the file has a placement policy', () => {
    expect(hasPlacementPolicy(parseAllocationFile(fixtureText('fair-scheduler.xml'), 'f.xml'))).toBe(true);
    expect(hasPlacementPolicy(parseAllocationFile('<allocations/>', 'f.xml'))).toBe(false);
  });

  it('refuses what Hadoop refuses, naming the file and line', () => {
    expect(() => importText(allocations('  <defaultQueueSchedulingPolicy>fifo</defaultQueueSchedulingPolicy>'))).toThrow(
      'fair-scheduler.xml:3: defaultQueueSchedulingPolicy = "fifo" cannot be fifo',
    );
    expect(() => importText(allocations('  <queue name="root"/>\n  <queue name="a"/>'))).toThrow(
      'fair-scheduler.xml:3: with a <queue name="root">, every other queue must be inside it',
    );
    expect(() => importText(allocations('  <queue name="a.b"/>'))).toThrow('fair-scheduler.xml:3: queue name "a.b" has a period');
    expect(() => importText(allocations('  <queue name="a"><minResources>1024 mb</minResources></queue>'))).toThrow(
      'fair-scheduler.xml:3: queue[root.a]/minResources = "1024 mb" is not of the form "1024 mb, 2 vcores"',
    );
    expect(() => importText(allocations('  <queue name="a"><schedulingPolicy>lottery</schedulingPolicy></queue>'))).toThrow(
      'is not a scheduling policy rmreplay models: fair, fifo or drf',
    );
    expect(() => parseAllocationFile('<configuration/>', 'fair-scheduler.xml')).toThrow(
      'fair-scheduler.xml: the top-level element is <configuration>, expected <allocations>',
    );
  });

  it('gives no min share for a percentage minResources, as Hadoop does, and says so', () => {
    const imported = importText(allocations('  <queue name="a"><minResources>25%</minResources></queue>'));
    expect(imported.queues).toEqual([queue('a', {})]);
    expect(imported.notes).toEqual([
      'fair-scheduler.xml:3 root.a: minResources "25%" is a percentage, which gives no min share in Hadoop; the queue gets none',
    ]);
  });
});
