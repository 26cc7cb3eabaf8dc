import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONTEXT, importCapacityScheduler, parseHadoopConfiguration } from '../../../src/ingest/hadoop-config/index.js';
import type { ConfigFinding, ImportContext } from '../../../src/ingest/hadoop-config/index.js';
import { queueConfig as queue } from '../../../src/model/queues.js';

const fixtureText = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/hadoop-config/${name}`, import.meta.url)), 'utf8');


const importText = (text: string, context: ImportContext = DEFAULT_CONTEXT) =>
  importCapacityScheduler(parseHadoopConfiguration(text, 'capacity-scheduler.xml'), { context });

const conf = (properties: Record<string, string>): string =>
  `<configuration>\n${Object.entries(properties)
    .map(([name, value]) => `  <property><name>yarn.scheduler.capacity.${name}</name><value>${value}</value></property>`)
    .join('\n')}\n</configuration>\n`;

const judged = (findings: readonly ConfigFinding[], kinds: readonly string[]): [string, string][] =>
  findings.filter((f) => kinds.includes(f.kind)).map((f) => [f.property, f.kind]);

describe('importCapacityScheduler', () => {
  it('imports two queues, their limits and the calculator exactly', () => {
    const imported = importText(fixtureText('capacity-scheduler.xml'));
    expect(imported.resourceCalculator).toBe('dominant');
    expect(imported.capacity).toEqual({ maximumApplications: 5000, maximumAmResourcePercent: 0.25 });
    expect(imported.queues).toEqual([
      queue('prod', { capacityPercent: 70, maximumCapacityPercent: 100, maxAmShare: 0.5 }),
      queue('dev', { capacityPercent: 30, maximumCapacityPercent: 50, userLimitFactor: 2, minimumUserLimitPercent: 25 }),
    ]);
    expect(imported.notes).toEqual([]);
  });

  it('judges every property once, and names the field it sets', () => {
    const imported = importText(fixtureText('capacity-scheduler.xml'));
    expect(imported.findings.map((f) => [f.property, f.kind, f.field])).toEqual([
      ['yarn.scheduler.capacity.maximum-applications', 'used', 'scheduler.capacity.maximumApplications'],
      ['yarn.scheduler.capacity.maximum-am-resource-percent', 'used', 'scheduler.capacity.maximumAmResourcePercent'],
      ['yarn.scheduler.capacity.resource-calculator', 'used', 'scheduler.resourceCalculator'],
      ['yarn.scheduler.capacity.node-locality-delay', 'ignored', null],
      ['yarn.scheduler.capacity.root.queues', 'used', 'scheduler.queues'],
      ['yarn.scheduler.capacity.root.prod.capacity', 'used', 'scheduler.queues[root.prod].capacityPercent'],
      ['yarn.scheduler.capacity.root.prod.maximum-capacity', 'used', 'scheduler.queues[root.prod].maximumCapacityPercent'],
      ['yarn.scheduler.capacity.root.prod.maximum-am-resource-percent', 'used', 'scheduler.queues[root.prod].maxAmShare'],
      ['yarn.scheduler.capacity.root.prod.state', 'used', null],
      ['yarn.scheduler.capacity.root.prod.acl_submit_applications', 'ignored', null],
      ['yarn.scheduler.capacity.root.dev.capacity', 'used', 'scheduler.queues[root.dev].capacityPercent'],
      ['yarn.scheduler.capacity.root.dev.maximum-capacity', 'used', 'scheduler.queues[root.dev].maximumCapacityPercent'],
      ['yarn.scheduler.capacity.root.dev.user-limit-factor', 'used', 'scheduler.queues[root.dev].userLimitFactor'],
      ['yarn.scheduler.capacity.root.dev.minimum-user-limit-percent', 'used', 'scheduler.queues[root.dev].minimumUserLimitPercent'],
    ]);
    expect(imported.findings.find((f) => f.property.endsWith('node-locality-delay'))?.reason).toBe(
      'rmreplay has no data placement: no node is local to an ask, so node- and rack-locality delays never apply (the CapacityScheduler off-switch delay does, docs/model.md 3.6)',
    );
  });

  it('reports every setting it does not model, and every property it does not know', () => {
    const imported = importText(fixtureText('unsupported-capacity-scheduler.xml'), { ...DEFAULT_CONTEXT, nodeLabels: null });
    expect(judged(imported.findings, ['unsupported', 'unknown'])).toEqual([
      ['yarn.scheduler.capacity.schedule-asynchronously.maximum-threads', 'unsupported'],
      ['yarn.scheduler.capacity.queue-mappings', 'unsupported'],
      ['yarn.scheduler.capacity.root.prod.accessible-node-labels', 'unsupported'],
      ['yarn.scheduler.capacity.root.prod.accessible-node-labels.gpu.capacity', 'unsupported'],
      ['yarn.scheduler.capacity.root.staging.capacity', 'unknown'],
      ['yarn.scheduler.capacity.root.dev.turbo-mode', 'unknown'],
      ['yarn.scheduler.capacity.frobnicate-queues', 'unknown'],
    ]);
    const reason = (suffix: string): string | undefined => imported.findings.find((f) => f.property.endsWith(suffix))?.reason;
    // Asynchronous scheduling as 2.8 runs it is modelled; 3.x's several threads are not.
    expect(imported.capacity.asyncScheduling).toBe(true);
    expect(reason('schedule-asynchronously.maximum-threads')).toBe("3.x's scheduler threads and proposal committer are not modelled: one thread, as in 2.8");
    expect(reason('queue-mappings')).toBe('queue mappings are not modelled: apps run in the queue the trace names');
    expect(reason('prod.accessible-node-labels')).toBe(
      'node labels are not modelled: every node is in the default partition, open to every queue (if yarn.node-labels.enabled is true; yarn-site.xml was not given)',
    );
    expect(reason('root.staging.capacity')).toBe(
      'names queue root.staging, which is not in the queue tree (not listed in yarn.scheduler.capacity.root.queues)',
    );
    // The queue settings it does model still apply.
    expect(imported.queues).toEqual([
      queue('prod', { capacityPercent: 60, schedulingPolicy: 'fair', fairSizeBasedWeight: true }),
      queue('dev', { capacityPercent: 40, maxRunningApps: 10 }),
    ]);
    expect(imported.capacity.userMaxParallelAppsDefault).toBe(5);
  });

  it("reads a leaf's ordering policy as 2.8 does: fifo, fair or their class names, and fair's size-based weight", () => {
    const base = { 'root.queues': 'a,b,c', 'root.a.capacity': '40', 'root.b.capacity': '30', 'root.c.capacity': '30' };
    const imported = importText(
      conf({
        ...base,
        'root.a.ordering-policy': ' fair ',
        'root.a.ordering-policy.fair.enable-size-based-weight': 'TRUE',
        'root.b.ordering-policy': 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.policy.FairOrderingPolicy',
        'root.b.ordering-policy.fair.enable-size-based-weight': 'yes',
        'root.c.ordering-policy': 'FAIR',
        'root.c.ordering-policy.fair.enable-size-based-weight': 'true',
      }),
    );
    // Boolean.parseBoolean: TRUE is true, yes is false. FAIR is neither name, so Hadoop takes it for a class.
    expect(imported.queues).toEqual([
      queue('a', { capacityPercent: 40, schedulingPolicy: 'fair', fairSizeBasedWeight: true }),
      queue('b', { capacityPercent: 30, schedulingPolicy: 'fair' }),
      queue('c', { capacityPercent: 30 }),
    ]);
    const kindOf = (suffix: string): string | undefined => imported.findings.find((f) => f.property.endsWith(suffix))?.kind;
    expect(kindOf('root.a.ordering-policy')).toBe('used');
    expect(kindOf('root.b.ordering-policy')).toBe('used');
    expect(kindOf('root.c.ordering-policy')).toBe('unsupported');
    expect(kindOf('root.c.ordering-policy.fair.enable-size-based-weight')).toBe('ignored');
  });

  it('reads asynchronous scheduling and its interval, read only when it is on', () => {
    const on = importText(conf({ 'root.queues': 'default', 'root.default.capacity': '100', 'schedule-asynchronously.enable': 'true', 'schedule-asynchronously.scheduling-interval-ms': '50' }));
    expect([on.capacity.asyncScheduling, on.capacity.asyncSchedulingIntervalMs]).toEqual([true, 50]);
    expect(judged(on.findings, ['used']).filter(([p]) => p.includes('asynchronously'))).toEqual([
      ['yarn.scheduler.capacity.schedule-asynchronously.enable', 'used'],
      ['yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms', 'used'],
    ]);
    const off = importText(conf({ 'root.queues': 'default', 'root.default.capacity': '100', 'schedule-asynchronously.scheduling-interval-ms': '50' }));
    expect(off.capacity.asyncSchedulingIntervalMs).toBeUndefined();
    expect(judged(off.findings, ['ignored']).map(([p]) => p)).toEqual(['yarn.scheduler.capacity.schedule-asynchronously.scheduling-interval-ms']);
  });

  it('reads 3.x per-user max-parallel-apps: the default and each user\'s own', () => {
    const imported = importText(
      conf({
        'root.queues': 'default',
        'root.default.capacity': '100',
        'user.max-parallel-apps': '4',
        'user.alice.max-parallel-apps': '1',
        'user.etl.svc.max-parallel-apps': '8',
      }),
    );
    expect(imported.capacity.userMaxParallelAppsDefault).toBe(4);
    expect(imported.capacity.userMaxParallelApps).toEqual({ alice: 1, 'etl.svc': 8 });
    expect(judged(imported.findings, ['unsupported', 'unknown'])).toEqual([]);
  });

  it('ignores node-label settings when yarn-site.xml turns node labels off', () => {
    const imported = importText(fixtureText('unsupported-capacity-scheduler.xml'), DEFAULT_CONTEXT);
    expect(imported.findings.find((f) => f.property.endsWith('accessible-node-labels.gpu.capacity'))?.kind).toBe('ignored');
  });

  it('settings that match the replay are used or ignored, not unsupported', () => {
    const imported = importText(
      conf({
        'root.queues': 'default',
        'root.default.capacity': '100',
        'schedule-asynchronously.enable': 'false',
        'schedule-asynchronously.maximum-threads': '4',
        'per-node-heartbeat.maximum-offswitch-assignments': '1',
        'per-node-heartbeat.multiple-assignments-enabled': 'true',
        'root.default.ordering-policy': 'fifo',
        'root.ordering-policy': 'utilization',
        'root.default.accessible-node-labels': '*',
        'root.default.maximum-application-lifetime': '-1',
        'queue-mappings': '',
        'root.capacity': '100',
      }),
    );
    expect(imported.findings.filter((f) => f.kind === 'unsupported' || f.kind === 'unknown')).toEqual([]);
    expect(imported.queues).toEqual([queue('default', { capacityPercent: 100, schedulingPolicy: 'fifo' })]);
  });

  it('reads the per-heartbeat assignment limits, an off-switch limit below 1 as 1, as Hadoop does', () => {
    const base = { 'root.queues': 'default', 'root.default.capacity': '100' };
    const imported = importText(
      conf({
        ...base,
        'per-node-heartbeat.maximum-offswitch-assignments': '3',
        'per-node-heartbeat.multiple-assignments-enabled': 'false',
        'per-node-heartbeat.maximum-container-assignments': '-1',
      }),
    );
    expect(imported.capacity).toMatchObject({ offSwitchPerHeartbeat: 3, multipleAssignmentsPerHeartbeat: false, maxAssignmentsPerHeartbeat: -1 });
    expect(judged(imported.findings, ['used']).filter(([p]) => p.includes('per-node-heartbeat')).map(([, kind]) => kind)).toEqual(['used', 'used', 'used']);
    expect(importText(conf({ ...base, 'per-node-heartbeat.maximum-offswitch-assignments': '0' })).capacity.offSwitchPerHeartbeat).toBe(1);
  });

  it('builds nested queues, weights (Nw), -1 maximum capacity, and leaf-only settings on a parent', () => {
    const imported = importText(
      conf({
        'root.queues': 'batch,interactive',
        'root.batch.capacity': '80',
        'root.batch.queues': 'etl,reports',
        'root.batch.user-limit-factor': '3',
        'root.batch.etl.capacity': '2w',
        'root.batch.reports.capacity': '1w',
        'root.batch.reports.maximum-applications': '50',
        'root.interactive.capacity': '20',
        'root.interactive.maximum-capacity': '-1',
      }),
    );
    expect(imported.queues).toEqual([
      queue('batch', {
        capacityPercent: 80,
        queues: [queue('etl', { weight: 2 }), queue('reports', { weight: 1, maximumApplications: 50 })],
      }),
      queue('interactive', { capacityPercent: 20 }),
    ]);
    const ulf = imported.findings.find((f) => f.property.endsWith('root.batch.user-limit-factor'));
    expect([ulf?.kind, ulf?.reason]).toEqual(['ignored', 'only leaf queues read it, and root.batch is a parent']);
  });

  it('takes yarn.scheduler.capacity.* from yarn-site.xml beneath the file, which wins', () => {
    const yarnSite = parseHadoopConfiguration(
      conf({ 'maximum-applications': '100', 'maximum-am-resource-percent': '0.3' }),
      'yarn-site.xml',
    );
    const imported = importCapacityScheduler(
      parseHadoopConfiguration(conf({ 'root.queues': 'a', 'root.a.capacity': '100', 'maximum-applications': '200' }), 'capacity-scheduler.xml'),
      { context: DEFAULT_CONTEXT, inherited: yarnSite.properties },
    );
    expect(imported.capacity).toEqual({ maximumApplications: 200, maximumAmResourcePercent: 0.3 });
    expect(imported.findings.filter((f) => f.file === 'yarn-site.xml').map((f) => [f.property, f.kind, f.reason])).toEqual([
      ['yarn.scheduler.capacity.maximum-applications', 'ignored', 'capacity-scheduler.xml:4 sets it too, and wins'],
      ['yarn.scheduler.capacity.maximum-am-resource-percent', 'used', 'applied'],
    ]);
  });

  it('applies the scheduler-wide max-parallel-apps to root and every queue that sets none; root\'s own wins for root', () => {
    const imported = importText(
      conf({
        'root.queues': 'a,b',
        'root.a.capacity': '50',
        'root.b.capacity': '50',
        'root.b.max-parallel-apps': '2',
        'max-parallel-apps': '7',
      }),
    );
    expect(imported.queues).toEqual([queue('a', { capacityPercent: 50, maxRunningApps: 7 }), queue('b', { capacityPercent: 50, maxRunningApps: 2 })]);
    expect(imported.rootMaxRunningApps).toBe(7);
    expect(imported.findings.find((f) => f.property === 'yarn.scheduler.capacity.max-parallel-apps')?.kind).toBe('used');
    const ownRoot = importText(conf({ 'root.queues': 'a', 'root.a.capacity': '100', 'max-parallel-apps': '7', 'root.max-parallel-apps': '30' }));
    expect(ownRoot.rootMaxRunningApps).toBe(30);
    expect(ownRoot.queues).toEqual([queue('a', { capacityPercent: 100, maxRunningApps: 7 })]);
  });

  it('takes a queue without a capacity as 0% and says so', () => {
    const imported = importText(conf({ 'root.queues': 'a,b', 'root.a.capacity': '100' }));
    expect(imported.queues).toEqual([queue('a', { capacityPercent: 100 }), queue('b', { capacityPercent: 0 })]);
    expect(imported.notes).toEqual([
      'capacity-scheduler.xml: root.b sets no yarn.scheduler.capacity.root.b.capacity; using 0% as Hadoop 3.x does (Hadoop 2.7 refuses the file)',
    ]);
  });

  it('refuses a file without root.queues, an unknown calculator and a bad state', () => {
    expect(() => importText(conf({ 'maximum-applications': '10' }))).toThrow(
      'capacity-scheduler.xml sets no yarn.scheduler.capacity.root.queues',
    );
    expect(() => importText(conf({ 'root.queues': 'a', 'root.a.capacity': '100', 'resource-calculator': 'com.example.GpuCalculator' }))).toThrow(
      /resource-calculator = "com.example.GpuCalculator" is not a calculator rmreplay models/,
    );
    expect(() => importText(conf({ 'root.queues': 'a', 'root.a.capacity': '100', 'root.a.state': 'PAUSED' }))).toThrow(
      'capacity-scheduler.xml:4: yarn.scheduler.capacity.root.a.state = "PAUSED" is not RUNNING or STOPPED',
    );
  });
});
