// A recommended change written as the Hadoop setting to make (src/api/hadoop-setting.ts), and the
// diff of that one setting against the user's own file.

import { describe, expect, it } from 'vitest';
import { hadoopSettings, settingDiff } from '../../src/api/hadoop-setting.js';

const capacity = { type: 'capacity', leafQueues: ['root.default'] } as const;
const fair = { type: 'fair', leafQueues: ['root.alpha', 'root.beta'] } as const;
const amShare = (share: number) => ({ kind: 'policy', spec: `am-share:${share}`, parameters: { amShare: share } }) as const;

describe('hadoopSettings', () => {
  it('writes an AM limit as each leaf queue\'s maximum-am-resource-percent, or maxAMShare in the allocation file', () => {
    expect(hadoopSettings(amShare(0.25), capacity).map((s) => s.text)).toEqual([
      'yarn.scheduler.capacity.root.default.maximum-am-resource-percent = 0.25 in capacity-scheduler.xml',
    ]);
    expect(hadoopSettings(amShare(0.25), fair).map((s) => s.text)).toEqual([
      '<maxAMShare>0.25</maxAMShare> on queue root.alpha in the allocation file (fair-scheduler.xml)',
      '<maxAMShare>0.25</maxAMShare> on queue root.beta in the allocation file (fair-scheduler.xml)',
    ]);
  });

  it('writes a scheduler switch as yarn-site.xml\'s scheduler class and the queue policy', () => {
    const texts = hadoopSettings({ kind: 'scheduler', scheduler: 'fair-drf' }, capacity).map((s) => s.text);
    expect(texts[0]).toBe(
      'yarn.resourcemanager.scheduler.class = org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler in yarn-site.xml',
    );
    expect(texts[1]).toMatch(/^<defaultQueueSchedulingPolicy>drf<\/defaultQueueSchedulingPolicy> in the allocation file/);
    // The same scheduler: only the queue policy changes.
    expect(hadoopSettings({ kind: 'scheduler', scheduler: 'fair-fifo' }, fair)).toHaveLength(1);
  });

  it("writes the CapacityScheduler's fair app ordering as each leaf queue's ordering-policy", () => {
    const twoLeaves = { type: 'capacity', leafQueues: ['root.a', 'root.b'] } as const;
    expect(hadoopSettings({ kind: 'scheduler', scheduler: 'capacity-fair' }, twoLeaves).map((s) => s.text)).toEqual([
      'yarn.scheduler.capacity.root.a.ordering-policy = fair in capacity-scheduler.xml',
      'yarn.scheduler.capacity.root.b.ordering-policy = fair in capacity-scheduler.xml',
    ]);
  });

  it('says a node count and states that adaptive controllers and rmreplay policies are no stock setting', () => {
    expect(hadoopSettings({ kind: 'nodes', nodes: 6, configuredNodes: 3 }, capacity)[0]!.text).toBe('6 NodeManagers (3 now)');
    const controller = hadoopSettings({ kind: 'policy', spec: 'autoadmin', parameters: {} }, capacity)[0]!;
    expect(controller.file).toBeNull();
    expect(controller.text).toMatch(/not a stock Hadoop setting/);
    const lookahead = hadoopSettings({ kind: 'policy', spec: 'lookahead', parameters: {} }, capacity)[0]!;
    expect(lookahead.text).toMatch(/an adaptive admission controller/);
    // max-apps replaces the AM limits: maxRunningApps with every queue's maxAMShare off.
    expect(hadoopSettings({ kind: 'policy', spec: 'max-apps:4', parameters: { maxApps: 4 } }, fair).map((s) => s.text)).toEqual([
      '<maxRunningApps>4</maxRunningApps> on queue root in the allocation file (fair-scheduler.xml)',
      '<maxAMShare>-1.0</maxAMShare> on queue root.alpha in the allocation file (fair-scheduler.xml)',
      '<maxAMShare>-1.0</maxAMShare> on queue root.beta in the allocation file (fair-scheduler.xml)',
    ]);
    expect(hadoopSettings({ kind: 'policy', spec: 'max-apps:4', parameters: { maxApps: 4 } }, capacity)[0]!.file).toBeNull();
  });
});

describe('settingDiff', () => {
  const capacityXml = [
    '<configuration>',
    '  <property>',
    '    <name>yarn.scheduler.capacity.root.default.maximum-am-resource-percent</name>',
    '    <value>0.1</value>',
    '  </property>',
    '</configuration>',
  ].join('\n');

  it('changes the value line of a property the file sets', () => {
    const [setting] = hadoopSettings(amShare(0.3), capacity);
    expect(settingDiff(setting!, 'cs.xml', capacityXml)).toEqual([
      '--- cs.xml',
      '+++ cs.xml (advised)',
      '@@ -4 +4 @@',
      '-    <value>0.1</value>',
      '+    <value>0.3</value>',
    ]);
  });

  it('adds the property before </configuration> when the file does not set it', () => {
    const [setting] = hadoopSettings(amShare(0.3), { type: 'capacity', leafQueues: ['root.prod'] });
    const diff = settingDiff(setting!, 'cs.xml', capacityXml)!;
    expect(diff.slice(3, 7)).toEqual([
      '+  <property>',
      '+    <name>yarn.scheduler.capacity.root.prod.maximum-am-resource-percent</name>',
      '+    <value>0.3</value>',
      '+  </property>',
    ]);
    expect(diff[7]).toBe(' </configuration>');
  });

  it('adds maxAMShare inside a one-line allocation-file queue, or replaces the one it has', () => {
    const allocations = '<allocations>\n  <queue name="alpha"><weight>1.0</weight></queue>\n  <queue name="beta"><maxAMShare>0.5</maxAMShare></queue>\n</allocations>';
    const [alpha, beta] = hadoopSettings(amShare(0.8), fair);
    expect(settingDiff(alpha!, 'fs.xml', allocations)!.slice(2)).toEqual([
      '@@ -2 +2 @@',
      '-  <queue name="alpha"><weight>1.0</weight></queue>',
      '+  <queue name="alpha"><maxAMShare>0.8</maxAMShare><weight>1.0</weight></queue>',
    ]);
    expect(settingDiff(beta!, 'fs.xml', allocations)!.slice(3)).toEqual([
      '-  <queue name="beta"><maxAMShare>0.5</maxAMShare></queue>',
      '+  <queue name="beta"><maxAMShare>0.8</maxAMShare></queue>',
    ]);
  });
});
