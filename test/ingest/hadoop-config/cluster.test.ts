import { describe, expect, it } from 'vitest';
import { truncateSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MAX_HADOOP_XML_BYTES } from '../../../src/ingest/hadoop-config/index.js';
import { formatFindings, loadClusterWithHadoopConfig } from '../../../src/ingest/hadoop-config/index.js';
import { ClusterFileError, parseCluster } from '../../../src/model/cluster.js';
import type { Cluster } from '../../../src/model/cluster.js';
import { UserError } from '../../../src/model/errors.js';
import { queueConfig as queue } from '../../../src/model/queues.js';
import { tempFile, tempPath } from '../../helpers/files.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/hadoop-config/${name}`, import.meta.url));


/** A base cluster as a cluster file would give it: two node groups and a dominant calculator. */
const base = (): Cluster =>
  parseCluster({
    name: 'lab',
    description: 'Two racks.',
    nodeGroups: [
      { name: 'old', count: 4, memoryMb: 8192, vcores: 8 },
      { name: 'new', count: 2, memoryMb: 32_768, vcores: 32, speedFactor: 1.5 },
    ],
    scheduler: { resourceCalculator: 'dominant', heartbeatIntervalMs: 3000 },
    mapreduce: { amRequest: { memoryMb: 2048, vcores: 1 } },
  });

describe('loadClusterWithHadoopConfig', () => {
  it('builds a CapacityScheduler cluster of N nodes of the yarn-site size, validated like a cluster file', async () => {
    const { cluster, findings, notes } = await loadClusterWithHadoopConfig({
      base: null,
      yarnSite: fixture('yarn-site.xml'),
      capacityScheduler: fixture('capacity-scheduler.xml'),
      nodes: 10,
      name: 'prod-cluster',
    });
    expect(cluster.name).toBe('prod-cluster');
    expect(cluster.nodeGroups).toEqual([{ name: '16384mb-16vc', count: 10, memoryMb: 16_384, vcores: 16, speedFactor: 1 }]);
    expect(cluster.scheduler).toEqual({
      type: 'capacity',
      resourceCalculator: 'dominant',
      minimumAllocation: { memoryMb: 512, vcores: 1 },
      maximumAllocation: { memoryMb: 16_384, vcores: 8 },
      incrementAllocation: { memoryMb: 1024, vcores: 1 },
      heartbeatIntervalMs: 500,
      queues: [
        queue('prod', { capacityPercent: 70, maximumCapacityPercent: 100, maxAmShare: 0.5 }),
        queue('dev', { capacityPercent: 30, maximumCapacityPercent: 50, userLimitFactor: 2, minimumUserLimitPercent: 25 }),
      ],
      rootMaxRunningApps: null,
      capacity: {
        maximumApplications: 5000,
        maximumAmResourcePercent: 0.25,
        userMaxParallelAppsDefault: null,
        userMaxParallelApps: {},
        offSwitchPerHeartbeat: 1,
        multipleAssignmentsPerHeartbeat: true,
        maxAssignmentsPerHeartbeat: 100,
        asyncScheduling: false,
        asyncSchedulingIntervalMs: 5,
      },
      fair: {
        assignMultiple: false,
        maxAssign: -1,
        sizeBasedWeight: false,
        updateIntervalMs: 500,
        userAsDefaultQueue: true,
        allowUndeclaredPools: true,
        queueMaxAmShareDefault: 0.5,
        defaultQueueSchedulingPolicy: 'fair',
        rootSchedulingPolicy: null,
        queueMaxAppsDefault: null,
        userMaxAppsDefault: null,
        userMaxApps: {},
        reservationThresholdIncrementMultiple: null,
        reservableNodes: null,
        amNormalizedAtSubmission: true,
        reportsHeadroom: true,
        localityThresholdNode: -1,
        localityThresholdRack: -1,
        capAllocationsAtMaxShare: false,
        continuousScheduling: false,
        continuousSchedulingSleepMs: 5,
      },
    });
    // MapReduce defaults and the task model are not in these files: Hadoop 2.7's.
    expect(cluster.mapreduce.amRequest).toEqual({ memoryMb: 1536, vcores: 1 });
    expect(findings).toHaveLength(16 + 14);
    expect(findings.filter((f) => f.kind === 'unsupported' || f.kind === 'unknown')).toEqual([]);
    expect(notes).toEqual([]);
  });

  it('builds a FairScheduler cluster from yarn-site.xml and the allocation file', async () => {
    const { cluster, findings, notes } = await loadClusterWithHadoopConfig({
      base: null,
      yarnSite: fixture('yarn-site-fair.xml'),
      fairScheduler: fixture('fair-scheduler.xml'),
      nodes: 4,
    });
    expect(cluster.name).toBe('hadoop-config');
    expect(cluster.nodeGroups).toEqual([{ name: '8192mb-8vc', count: 4, memoryMb: 8192, vcores: 8, speedFactor: 1 }]);
    expect(cluster.scheduler.type).toBe('fair');
    expect(cluster.scheduler.incrementAllocation).toEqual({ memoryMb: 512, vcores: 1 });
    expect(cluster.scheduler.fair).toEqual({
      assignMultiple: true,
      maxAssign: 4,
      sizeBasedWeight: false,
      updateIntervalMs: 500,
      // From the allocation file's placement policy, which overrides yarn-site.xml's true.
      userAsDefaultQueue: false,
      allowUndeclaredPools: false,
      queueMaxAmShareDefault: 0.4,
      defaultQueueSchedulingPolicy: 'drf',
      rootSchedulingPolicy: null,
      queueMaxAppsDefault: null,
      userMaxAppsDefault: null,
      userMaxApps: {},
      reservationThresholdIncrementMultiple: null,
      reservableNodes: null,
      amNormalizedAtSubmission: true,
      reportsHeadroom: true,
      localityThresholdNode: 0.5,
      localityThresholdRack: -1,
      capAllocationsAtMaxShare: false,
      continuousScheduling: false,
      continuousSchedulingSleepMs: 5,
    });
    expect(cluster.scheduler.queues.map((q) => [q.name, q.weight, q.minResources, q.maxResources, q.maximumCapacityPercent, q.maxAmShare])).toEqual([
      ['analytics', 3, { memoryMb: 8192, vcores: 4 }, { memoryMb: 65_536, vcores: 32 }, null, 0.3],
      ['adhoc', 1, { memoryMb: 4096, vcores: 2 }, null, 50, 0.5],
    ]);
    expect(findings.filter((f) => f.kind === 'unsupported').map((f) => f.property)).toEqual([
      'yarn.scheduler.fair.preemption',
      'yarn.scheduler.fair.preemption.cluster-utilization-threshold',
    ]);
    expect(notes).toEqual([
      "no yarn.nodemanager.resource.memory-mb given: nodes get Hadoop's default 8192 MB",
      "no yarn.nodemanager.resource.cpu-vcores given: nodes get Hadoop's default 8 vcores",
      `${fixture('yarn-site-fair.xml')}:16 yarn.scheduler.fair.assignmultiple=true: on Hadoop 3.x yarn.scheduler.fair.dynamic.max.assign defaults to true (assign up to half the node's free resources); the replay caps assignments with yarn.scheduler.fair.max.assign as Hadoop 2.7 does`,
    ]);
  });

  it('overrides the base cluster\'s scheduler settings, keeps its nodes and says what it kept', async () => {
    const { cluster, notes } = await loadClusterWithHadoopConfig({
      base: base(),
      capacityScheduler: fixture('unsupported-capacity-scheduler.xml'),
    });
    expect(cluster.name).toBe('lab');
    expect(cluster.description).toBe(`Two racks. Scheduler settings from ${fixture('unsupported-capacity-scheduler.xml')}.`);
    expect(cluster.nodeGroups).toEqual(base().nodeGroups);
    expect(cluster.mapreduce.amRequest).toEqual({ memoryMb: 2048, vcores: 1 });
    expect(cluster.scheduler.heartbeatIntervalMs).toBe(3000);
    expect(cluster.scheduler.resourceCalculator).toBe('dominant');
    expect(cluster.scheduler.queues.map((q) => [q.name, q.capacityPercent])).toEqual([
      ['prod', 60],
      ['dev', 40],
    ]);
    expect(notes).toEqual([
      `${fixture('unsupported-capacity-scheduler.xml')} does not set yarn.scheduler.capacity.resource-calculator: keeping the base cluster's "dominant" (Hadoop's default is "default")`,
    ]);
  });

  it('rebuilds the node groups of a base cluster when asked for N nodes', async () => {
    const { cluster, notes } = await loadClusterWithHadoopConfig({ base: base(), yarnSite: fixture('yarn-site.xml'), nodes: 3 });
    expect(cluster.nodeGroups).toEqual([{ name: '16384mb-16vc', count: 3, memoryMb: 16_384, vcores: 16, speedFactor: 1 }]);
    expect(cluster.scheduler.queues).toEqual([]);
    expect(notes).toContain('the node groups are now 3 nodes of 16384 MB / 16 vcores, replacing the base cluster\'s 2 group(s)');
    expect(notes).toContain('the base cluster has node groups of several speeds: the new nodes have speed factor 1');
    await expect(loadClusterWithHadoopConfig({ base: base(), yarnSite: fixture('yarn-site-fair.xml'), nodes: 3 })).rejects.toThrow(
      `--nodes 3 needs one node size, but ${fixture('yarn-site-fair.xml')} sets no yarn.nodemanager.resource.memory-mb and the base cluster has 2 node groups`,
    );
  });

  it('reports a yarn-site node size it does not apply', async () => {
    const { cluster, findings, notes } = await loadClusterWithHadoopConfig({ base: base(), yarnSite: fixture('yarn-site.xml') });
    expect(cluster.nodeGroups).toEqual(base().nodeGroups);
    expect(findings.find((f) => f.property === 'yarn.nodemanager.resource.memory-mb')?.kind).toBe('ignored');
    expect(notes[0]).toBe(
      `${fixture('yarn-site.xml')} sets the NodeManager size, but the node groups come from the base cluster: pass --nodes N for N nodes of that size`,
    );
  });

  it('passes the cluster schema\'s message on when capacities do not add up', async () => {
    const error: unknown = await loadClusterWithHadoopConfig({ base: base(), capacityScheduler: fixture('capacity-bad-sum.xml') }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ClusterFileError);
    expect((error as Error).message).toBe(
      `invalid cluster from the Hadoop configuration (${fixture('capacity-bad-sum.xml')}): scheduler.queues:\n` +
        '  - the CapacityScheduler needs the children of root to add up to 100%, they add up to 90%',
    );
  });

  it('refuses what it cannot build, as user errors naming the files', async () => {
    const refuse = async (request: Parameters<typeof loadClusterWithHadoopConfig>[0], message: string | RegExp): Promise<void> => {
      const error: unknown = await loadClusterWithHadoopConfig(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      if (typeof message === 'string') expect((error as Error).message).toBe(message);
      else expect((error as Error).message).toMatch(message);
    };
    await refuse(
      { base: null, capacityScheduler: fixture('capacity-scheduler.xml') },
      'the Hadoop configuration files describe the scheduler, not the nodes: pass --cluster FILE or --nodes N',
    );
    await refuse({ base: base() }, 'no Hadoop configuration file given: pass --yarn-site, --capacity-scheduler or --fair-scheduler');
    await refuse({ base: base(), yarnSite: fixture('yarn-site.xml'), nodes: 0 }, '--nodes must be a whole number of at least 1, not 0');
    await refuse(
      { base: base(), yarnSite: fixture('yarn-site-fair.xml'), capacityScheduler: fixture('capacity-scheduler.xml') },
      `${fixture('yarn-site-fair.xml')} sets yarn.resourcemanager.scheduler.class to the FairScheduler, but capacity-scheduler.xml ${fixture('capacity-scheduler.xml')} configures the CapacityScheduler: pass the file of the scheduler yarn-site.xml names`,
    );
    await refuse(
      { base: base(), yarnSite: fixture('yarn-site.xml'), fairScheduler: fixture('fair-scheduler.xml') },
      `${fixture('yarn-site.xml')} sets yarn.resourcemanager.scheduler.class to the CapacityScheduler, but fair-scheduler.xml ${fixture('fair-scheduler.xml')} configures the FairScheduler: pass the file of the scheduler yarn-site.xml names`,
    );
    await refuse(
      { base: base(), capacityScheduler: fixture('capacity-scheduler.xml'), fairScheduler: fixture('fair-scheduler.xml') },
      /^both a capacity-scheduler.xml \(.*\) and a fair-scheduler.xml \(.*\) were given/,
    );
    await refuse({ base: base(), yarnSite: fixture('yarn-site-fifo.xml') }, /yarn-site-fifo.xml:3: .*names the FifoScheduler, which rmreplay does not model/);
    await refuse(
      { base: base(), yarnSite: fixture('malformed.xml') },
      `${fixture('malformed.xml')} is not well-formed XML: line 9, column 16: Expected closing tag 'value' (opened in line 9, col 5) instead of closing tag 'valeu'.`,
    );
    await refuse({ base: base(), capacityScheduler: '/no/such/capacity-scheduler.xml' }, 'cannot read capacity-scheduler.xml /no/such/capacity-scheduler.xml (ENOENT)');
    await refuse({ base: base(), fairScheduler: fixture('yarn-site.xml') }, `${fixture('yarn-site.xml')}: the top-level element is <configuration>, expected <allocations>`);
  });

  it('refuses a Hadoop XML file over MAX_HADOOP_XML_BYTES before reading it, in one line: memory stays bounded', async () => {
    // Sparse: the size is what is refused, the content is never read.
    const conf = '<configuration></configuration>';
    const huge = tempPath('huge-site.xml');
    writeFileSync(huge, conf);
    truncateSync(huge, MAX_HADOOP_XML_BYTES + 1);
    const mib = (MAX_HADOOP_XML_BYTES / 1024 / 1024).toFixed(1);
    for (const [option, what] of [['yarnSite', 'yarn-site.xml'], ['capacityScheduler', 'capacity-scheduler.xml'], ['fairScheduler', 'fair-scheduler.xml']] as const) {
      const error: unknown = await loadClusterWithHadoopConfig({ base: base(), [option]: huge }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toBe(`${what} ${huge} is ${mib} MiB, over the ${mib} MiB read: a Hadoop configuration file is a few hundred KB`);
    }
    // At the limit, read.
    writeFileSync(huge, conf.padEnd(MAX_HADOOP_XML_BYTES - 1, ' ') + '\n');
    await expect(loadClusterWithHadoopConfig({ base: base(), yarnSite: huge })).resolves.toBeDefined();
  });

  it('takes the FairScheduler from an allocation file when yarn-site.xml names no scheduler, and says so', async () => {
    const yarnSite = tempFile('yarn-site-no-class.xml', '<configuration><property><name>yarn.scheduler.minimum-allocation-mb</name><value>256</value></property></configuration>');
    const { cluster, notes } = await loadClusterWithHadoopConfig({ base: base(), yarnSite, fairScheduler: fixture('fair-scheduler.xml') });
    expect(cluster.scheduler.type).toBe('fair');
    expect(cluster.scheduler.minimumAllocation).toEqual({ memoryMb: 256, vcores: 1 });
    expect(notes[0]).toBe(
      `${yarnSite} names no yarn.resourcemanager.scheduler.class (Hadoop's default is the CapacityScheduler); using the FairScheduler because ${fixture('fair-scheduler.xml')} was given`,
    );
  });

  it('switches a base cluster to the scheduler yarn-site.xml names, keeping its queues but not its AM limits, and points to the allocation file', async () => {
    const prod = parseCluster({ ...base(), scheduler: { ...base().scheduler, queues: [queue('prod', { capacityPercent: 100, maxAmShare: 0.1 })] } });
    const { cluster, notes } = await loadClusterWithHadoopConfig({ base: prod, yarnSite: fixture('yarn-site-fair.xml') });
    expect(cluster.scheduler.type).toBe('fair');
    // The CapacityScheduler's 10% AM limit is not the FairScheduler's maxAMShare (docs/model.md 4.9).
    expect(cluster.scheduler.queues).toEqual([queue('prod', { weight: 1 })]);
    expect(cluster.scheduler.fair.queueMaxAmShareDefault).toBe(0.5);
    expect(notes.slice(0, 2)).toEqual([
      'the scheduler is now the FairScheduler: the cluster ran the CapacityScheduler and no allocation file (--fair-scheduler) was given: ' +
        'its queues are kept, weighted by their capacities (root.prod 1), with no min share and their maximum capacity as max share; ' +
        "maxAMShare 0.5 (the CapacityScheduler's AM limit of 0.1 is not carried), no running-app limits, apps submitted to default run in root.<user>",
      `${fixture('yarn-site-fair.xml')} names the allocation file /etc/hadoop/conf/fair-scheduler.xml: pass it with --fair-scheduler to import its queues`,
    ]);
    expect(notes).toContain(
      `${fixture('yarn-site-fair.xml')} does not set yarn.resourcemanager.nodemanagers.heartbeat-interval-ms: keeping the base cluster's 3000 (Hadoop's default is 1000)`,
    );
  });

  it('counts a yarn-site.xml of 20,000 unknown properties and lists only the first few', async () => {
    const properties = Array.from({ length: 20_000 }, (_, i) => `<property><name>x.unknown.${i}</name><value>${i}</value></property>`);
    // And one repeated property, so that an ignored finding past the unknown ones still counts.
    const yarnSite = tempFile(
      'yarn-site.xml',
      `<configuration>\n${properties.join('\n')}\n<property><name>x.unknown.0</name><value>again</value></property>\n</configuration>\n`,
    );
    const imported = await loadClusterWithHadoopConfig({ base: base(), yarnSite });
    expect(imported.findings.length).toBeLessThanOrEqual(40);
    const lines = formatFindings(imported.findings, imported.findingCounts);
    // x.unknown.0 twice: the first is ignored (the last wins), the last unknown.
    expect(lines[0]).toBe(`${yarnSite}: 1 ignored, 20000 unknown`);
    expect(lines).toContain('unknown (not recognised):');
    expect(lines).toContain(`  ${yarnSite}:3 x.unknown.1 = "1": not a property rmreplay knows in yarn-site.xml`);
    expect(lines.at(-1)).toBe(`  ... and 19980 more unknown in ${yarnSite}`);
    expect(lines.length).toBeLessThan(30);
  });

  it('summarises findings: counts per file, ignored ones only counted', async () => {
    const { findings } = await loadClusterWithHadoopConfig({
      base: base(),
      yarnSite: fixture('yarn-site-fair.xml'),
      fairScheduler: fixture('unsupported-fair-scheduler.xml'),
    });
    const lines = formatFindings(findings);
    expect(lines.slice(0, 2)).toEqual([
      `${fixture('yarn-site-fair.xml')}: 6 used, 2 ignored, 2 unsupported`,
      `${fixture('unsupported-fair-scheduler.xml')}: 7 used, 6 unsupported, 1 unknown`,
    ]);
    expect(lines).toContain('unsupported (changes scheduling on a real cluster, not modelled):');
    expect(lines).toContain(
      `  ${fixture('unsupported-fair-scheduler.xml')}:9 queue[root.etl]/fairSharePreemptionTimeout = "60": preemption is not modelled: containers are never preempted`,
    );
    expect(lines.some((line) => line.includes('yarn.scheduler.fair.allocation.file'))).toBe(false);
  });
});
