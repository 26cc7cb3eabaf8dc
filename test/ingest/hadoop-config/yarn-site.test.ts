import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_CONTEXT,
  importYarnSite,
  parseHadoopConfiguration,
  schedulerTypeOfYarnSite,
  yarnSiteContext,
} from '../../../src/ingest/hadoop-config/index.js';
import type { ImportContext, YarnSiteOptions } from '../../../src/ingest/hadoop-config/index.js';

const fixtureText = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`../../fixtures/hadoop-config/${name}`, import.meta.url)), 'utf8');

const conf = (properties: Record<string, string>): string =>
  `<configuration>\n${Object.entries(properties)
    .map(([name, value]) => `  <property><name>${name}</name><value>${value}</value></property>`)
    .join('\n')}\n</configuration>\n`;

const options = (context: Partial<ImportContext> = {}, rest: Partial<YarnSiteOptions> = {}): YarnSiteOptions => ({
  context: { ...DEFAULT_CONTEXT, ...context },
  withCapacityScheduler: false,
  placementPolicyInAllocationFile: false,
  nodeResourcesApplied: true,
  ...rest,
});

const importText = (text: string, o: YarnSiteOptions = options()) => importYarnSite(parseHadoopConfiguration(text, 'yarn-site.xml'), o);

describe('importYarnSite', () => {
  it('reads the scheduler, allocation limits, heartbeat and node size, with ${var} substituted', () => {
    const imported = importText(fixtureText('yarn-site.xml'));
    expect(schedulerTypeOfYarnSite(parseHadoopConfiguration(fixtureText('yarn-site.xml'), 'yarn-site.xml'))).toBe('capacity');
    expect(imported.minimumAllocation).toEqual({ memoryMb: 512, vcores: 1 });
    // yarn.scheduler.maximum-allocation-mb is ${yarn.nodemanager.resource.memory-mb}.
    expect(imported.maximumAllocation).toEqual({ memoryMb: 16_384, vcores: 8 });
    expect(imported.incrementAllocation).toEqual({});
    expect(imported.heartbeatIntervalMs).toBe(500);
    expect(imported.nodeResources).toEqual({ memoryMb: 16_384, vcores: 16 });
    expect(imported.fair).toEqual({});
    expect(imported.findings.map((f) => [f.property, f.kind])).toEqual([
      ['yarn.resourcemanager.hostname', 'ignored'],
      ['yarn.resourcemanager.address', 'ignored'],
      ['yarn.resourcemanager.webapp.address', 'ignored'],
      ['yarn.resourcemanager.scheduler.class', 'used'],
      ['yarn.scheduler.minimum-allocation-mb', 'used'],
      ['yarn.scheduler.minimum-allocation-vcores', 'used'],
      ['yarn.scheduler.maximum-allocation-mb', 'used'],
      ['yarn.scheduler.maximum-allocation-vcores', 'used'],
      ['yarn.resourcemanager.nodemanagers.heartbeat-interval-ms', 'used'],
      ['yarn.nodemanager.resource.memory-mb', 'used'],
      ['yarn.nodemanager.resource.cpu-vcores', 'used'],
      ['yarn.nodemanager.local-dirs', 'ignored'],
      ['yarn.nodemanager.aux-services', 'ignored'],
      ['yarn.log-aggregation-enable', 'ignored'],
      ['yarn.resourcemanager.scheduler.monitor.enable', 'used'],
      ['yarn.acl.enable', 'ignored'],
    ]);
    const address = imported.findings.find((f) => f.property === 'yarn.resourcemanager.address');
    expect([address?.value, address?.reason]).toEqual(['rm1.example.com:8032', 'a network address or port']);
  });

  it('reports the node size as not applied when the node groups stay', () => {
    const imported = importText(fixtureText('yarn-site.xml'), options({}, { nodeResourcesApplied: false }));
    const memory = imported.findings.find((f) => f.property === 'yarn.nodemanager.resource.memory-mb');
    expect([memory?.kind, memory?.field]).toEqual(['ignored', null]);
  });

  it('reads the FairScheduler settings, and reports preemption as unsupported', () => {
    const text = fixtureText('yarn-site-fair.xml');
    const parsed = parseHadoopConfiguration(text, 'yarn-site-fair.xml');
    expect(schedulerTypeOfYarnSite(parsed)).toBe('fair');
    const context = { ...yarnSiteContext(parsed), schedulerType: 'fair' as const };
    expect(context).toEqual({ schedulerType: 'fair', fairPreemption: true, capacityPreemption: false, nodeLabels: false, reservationSystem: false });
    const imported = importYarnSite(parsed, options(context));
    expect(imported.incrementAllocation).toEqual({ memoryMb: 512 });
    expect(imported.fair).toEqual({ assignMultiple: true, maxAssign: 4, userAsDefaultQueue: true, localityThresholdNode: 0.5, continuousScheduling: false });
    expect(imported.allocationFile).toBe('/etc/hadoop/conf/fair-scheduler.xml');
    expect(imported.findings.filter((f) => f.kind === 'unsupported').map((f) => [f.property, f.reason])).toEqual([
      ['yarn.scheduler.fair.preemption', 'preemption is not modelled: containers are never preempted'],
      ['yarn.scheduler.fair.preemption.cluster-utilization-threshold', 'preemption is not modelled: containers are never preempted'],
    ]);
    // Heartbeat-mode delay scheduling delays asks that name hosts: it is read, not ignored.
    expect(imported.findings.find((f) => f.property === 'yarn.scheduler.fair.locality.threshold.node')?.kind).toBe('used');
  });

  it('reads yarn.scheduler.fair.sizebasedweight', () => {
    const imported = importText(conf({ 'yarn.scheduler.fair.sizebasedweight': 'true' }), options({ schedulerType: 'fair' }));
    expect(imported.fair).toEqual({ sizeBasedWeight: true });
    expect(imported.findings.map((f) => f.kind)).toEqual(['used']);
  });

  it('reads continuous scheduling and its sleep, and reports a time-based locality delay as not modelled', () => {
    const on = importText(
      conf({
        'yarn.scheduler.fair.continuous-scheduling-enabled': 'true',
        'yarn.scheduler.fair.continuous-scheduling-sleep-ms': '20',
        'yarn.scheduler.fair.locality-delay-node-ms': '-1',
        'yarn.scheduler.fair.locality-delay-rack-ms': '4000',
      }),
      options({ schedulerType: 'fair' }),
    );
    expect(on.fair).toEqual({ continuousScheduling: true, continuousSchedulingSleepMs: 20 });
    expect(on.findings.map((f) => f.kind)).toEqual(['used', 'used', 'used', 'unsupported']);
    const off = importText(
      conf({ 'yarn.scheduler.fair.continuous-scheduling-enabled': 'false', 'yarn.scheduler.fair.continuous-scheduling-sleep-ms': '20' }),
      options({ schedulerType: 'fair' }),
    );
    expect(off.fair).toEqual({ continuousScheduling: false });
    expect(off.findings.map((f) => f.kind)).toEqual(['used', 'ignored']);
    const capacity = importText(conf({ 'yarn.scheduler.fair.continuous-scheduling-enabled': 'true' }), options({ schedulerType: 'capacity' }));
    expect(capacity.findings.map((f) => f.kind)).toEqual(['ignored']);
  });

  it('reads the 2.8+ FairScheduler reservation limits, and refuses values Hadoop could not use', () => {
    const imported = importText(
      conf({ 'yarn.scheduler.reservation-threshold.increment-multiple': '2', 'yarn.scheduler.fair.reservable-nodes': '0.05' }),
      options({ schedulerType: 'fair' }),
    );
    expect(imported.fair).toEqual({ reservationThresholdIncrementMultiple: 2, reservableNodes: 0.05 });
    expect(imported.findings.map((f) => f.kind)).toEqual(['used', 'used']);
    expect(() => importText(conf({ 'yarn.scheduler.fair.reservable-nodes': '1.5' }), options({ schedulerType: 'fair' }))).toThrow(
      'yarn.scheduler.fair.reservable-nodes = "1.5" is not a fraction of the nodes between 0 and 1',
    );
  });

  it('leaves placement settings to the allocation file when it has a queuePlacementPolicy', () => {
    const imported = importText(fixtureText('yarn-site-fair.xml'), options({ schedulerType: 'fair' }, { placementPolicyInAllocationFile: true }));
    expect(imported.fair).toEqual({ assignMultiple: true, maxAssign: 4, localityThresholdNode: 0.5, continuousScheduling: false });
    expect(imported.findings.find((f) => f.property === 'yarn.scheduler.fair.user-as-default-queue')?.kind).toBe('ignored');
  });

  it('prefers yarn.resource-types.* (Hadoop 3.x) and converts their units', () => {
    const imported = importText(
      conf({
        'yarn.scheduler.increment-allocation-mb': '256',
        'yarn.resource-types.memory-mb.increment-allocation': '1Gi',
        'yarn.resource-types.vcores.increment-allocation': '2',
        'yarn.resource-types.memory-mb.maximum-allocation': '32768',
      }),
      options({ schedulerType: 'fair' }),
    );
    expect(imported.incrementAllocation).toEqual({ memoryMb: 1024, vcores: 2 });
    expect(imported.maximumAllocation).toEqual({ memoryMb: 32_768 });
    expect(imported.findings[0]).toMatchObject({
      property: 'yarn.scheduler.increment-allocation-mb',
      kind: 'ignored',
      reason: 'yarn.resource-types.memory-mb.increment-allocation is set too, and Hadoop 3.x takes that one',
    });
  });

  it('passes yarn.scheduler.capacity.* on to the capacity-scheduler.xml import, or reports them', () => {
    const text = conf({ 'yarn.scheduler.capacity.maximum-applications': '100' });
    expect(importText(text, options({}, { withCapacityScheduler: true })).capacityProperties.map((p) => p.name)).toEqual([
      'yarn.scheduler.capacity.maximum-applications',
    ]);
    const alone = importText(text);
    expect(alone.capacityProperties).toEqual([]);
    expect(alone.findings.map((f) => f.kind)).toEqual(['unsupported']);
  });

  it('reports unknown properties, MapReduce defaults and hardware detection', () => {
    const imported = importText(
      conf({
        'yarn.scheduler.turbo': 'true',
        'yarn.nodemanager.resource.memory_mb': '4096',
        'yarn.app.mapreduce.am.resource.mb': '2048',
        'yarn.nodemanager.resource.detect-hardware-capabilities': 'true',
        'yarn.nodemanager.resource.system-reserved-memory-mb': '2048',
        'yarn.node-labels.enabled': 'true',
        'yarn.cluster.max-application-priority': '10',
        'fs.defaultFS': 'hdfs://nn:8020',
      }),
      options({ nodeLabels: true }),
    );
    expect(imported.findings.map((f) => [f.property, f.kind])).toEqual([
      ['yarn.scheduler.turbo', 'unknown'],
      ['yarn.nodemanager.resource.memory_mb', 'unknown'],
      ['yarn.app.mapreduce.am.resource.mb', 'unsupported'],
      ['yarn.nodemanager.resource.detect-hardware-capabilities', 'unsupported'],
      ['yarn.nodemanager.resource.system-reserved-memory-mb', 'unsupported'],
      ['yarn.node-labels.enabled', 'unsupported'],
      ['yarn.cluster.max-application-priority', 'unsupported'],
      ['fs.defaultFS', 'ignored'],
    ]);
    expect(imported.findings[2]?.reason).toBe(
      'a MapReduce job default: this import reads ResourceManager settings only; set mapreduce.amRequest.memoryMb in the cluster file instead',
    );
  });

  it("judges the RM's start-up wait against the replay's 10 s, and ignores the rest of HA and recovery", () => {
    const wait = 'yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms';
    const kinds = (value: string) =>
      importText(conf({ [wait]: value, 'yarn.resourcemanager.ha.enabled': 'true' })).findings.map((f) => [f.property, f.kind]);
    expect(kinds('10000')).toEqual([
      [wait, 'used'],
      ['yarn.resourcemanager.ha.enabled', 'ignored'],
    ]);
    expect(kinds('30000')).toEqual([
      [wait, 'unsupported'],
      ['yarn.resourcemanager.ha.enabled', 'ignored'],
    ]);
  });

  it('takes a NodeManager size of -1 (Hadoop 3.x) as 8192 MB / 8 vcores', () => {
    const imported = importText(conf({ 'yarn.nodemanager.resource.memory-mb': '-1', 'yarn.nodemanager.resource.cpu-vcores': '-1' }));
    expect(imported.nodeResources).toEqual({ memoryMb: 8192, vcores: 8 });
    expect(imported.notes).toHaveLength(2);
  });

  it('refuses the FifoScheduler, a custom scheduler and a bad number', () => {
    const fifo = parseHadoopConfiguration(fixtureText('yarn-site-fifo.xml'), 'yarn-site-fifo.xml');
    expect(() => schedulerTypeOfYarnSite(fifo)).toThrow(
      'yarn-site-fifo.xml:3: yarn.resourcemanager.scheduler.class names the FifoScheduler, which rmreplay does not model; it models the CapacityScheduler and the FairScheduler',
    );
    const custom = parseHadoopConfiguration(conf({ 'yarn.resourcemanager.scheduler.class': 'com.example.MyScheduler' }), 'yarn-site.xml');
    expect(() => schedulerTypeOfYarnSite(custom)).toThrow(/com.example.MyScheduler is not a scheduler rmreplay models/);
    expect(() => importText(conf({ 'yarn.scheduler.minimum-allocation-mb': '1g' }))).toThrow(
      'yarn-site.xml:2: yarn.scheduler.minimum-allocation-mb = "1g" is not an integer',
    );
  });
});
