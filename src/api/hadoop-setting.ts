// A change `advise` recommends, written as what an operator sets: the Hadoop property and value
// and the file it goes in (capacity-scheduler.xml, the FairScheduler allocation file,
// yarn-site.xml), or the node count; a change with no stock Hadoop setting (rmreplay's own
// admission policies and adaptive controllers) says so rather than naming a property.

import type { SchedulerType } from '../model/cluster.js';

/** A change as advise tries it: an admission policy, a scheduler combination, or a node count. */
export type AdvisedChange =
  | { readonly kind: 'as-configured' }
  | { readonly kind: 'policy'; readonly spec: string; readonly parameters: Readonly<Record<string, unknown>> }
  | { readonly kind: 'scheduler'; readonly scheduler: string }
  | { readonly kind: 'nodes'; readonly nodes: number; readonly configuredNodes: number };

/** What the cluster runs now, as far as naming a setting needs it. */
export interface SchedulerFacts {
  readonly type: SchedulerType;
  /** Leaf queue paths, `root.default`; empty: the stock single queue `root.default`. */
  readonly leafQueues: readonly string[];
}

/** Where a setting lives: a property in a *-site.xml style file, or an element of an allocation-file queue. */
export type SettingTarget =
  | { readonly kind: 'property'; readonly name: string; readonly value: string }
  | { readonly kind: 'queue-element'; readonly queue: string; readonly element: string; readonly value: string };

export interface HadoopSetting {
  /** The file it goes in; null for a node count or a change with no stock setting. */
  readonly file: string | null;
  readonly target: SettingTarget | null;
  /** The setting in one line, as the terminal and the page print it. */
  readonly text: string;
}

export const CAPACITY_FILE = 'capacity-scheduler.xml';
export const FAIR_FILE = 'fair-scheduler.xml';
export const YARN_SITE_FILE = 'yarn-site.xml';

const SCHEDULER_CLASS = 'yarn.resourcemanager.scheduler.class';
/** The settings that make `change` on a cluster that runs `facts`; one line each. */
export function hadoopSettings(change: AdvisedChange, facts: SchedulerFacts): HadoopSetting[] {
  switch (change.kind) {
    case 'as-configured':
      return [{ file: null, target: null, text: 'no change: keep the settings as configured' }];
    case 'nodes':
      return [{ file: null, target: null, text: `${change.nodes} NodeManagers (${change.configuredNodes} now)` }];
    case 'scheduler':
      return schedulerSettings(change.scheduler, facts);
    case 'policy':
      return policySettings(change.spec, change.parameters, facts);
  }
}

function leaves(facts: SchedulerFacts): readonly string[] {
  return facts.leafQueues.length > 0 ? facts.leafQueues : ['root.default'];
}

function property(file: string, name: string, value: string): HadoopSetting {
  return { file, target: { kind: 'property', name, value }, text: `${name} = ${value} in ${file}` };
}

function queueElement(queue: string, element: string, value: string): HadoopSetting {
  return {
    file: FAIR_FILE,
    target: { kind: 'queue-element', queue, element, value },
    text: `<${element}>${value}</${element}> on queue ${queue} in the allocation file (${FAIR_FILE})`,
  };
}

function notStock(text: string): HadoopSetting {
  return { file: null, target: null, text };
}

function policySettings(spec: string, parameters: Readonly<Record<string, unknown>>, facts: SchedulerFacts): HadoopSetting[] {
  const name = spec.split(':')[0];
  if (name === 'am-share') {
    const share = String(parameters['amShare']);
    return leaves(facts).map((queue) => KIND_SETTINGS[facts.type].amShare(queue, share));
  }
  if (name === 'max-apps') return KIND_SETTINGS[facts.type].maxApps(String(parameters['maxApps']), spec, facts);
  if (name === 'autoadmin' || name === 'marp-feedback' || name === 'lookahead') {
    return [notStock(`${spec}: an adaptive admission controller, not a stock Hadoop setting (it runs in front of the scheduler)`)];
  }
  return [notStock(`${spec}: rmreplay's own admission policy, not a stock Hadoop setting`)];
}

/** `capacity-fifo`, `fair-drf`, ...: the scheduler class if it changes, then the queues' policy. */
function schedulerSettings(scheduler: string, facts: SchedulerFacts): HadoopSetting[] {
  const dash = scheduler.indexOf('-');
  // A combination's label starts with its kind's type (policies/scheduling/registry.ts).
  const type = scheduler.slice(0, dash) as SchedulerType;
  const policy = scheduler.slice(dash + 1);
  const settings: HadoopSetting[] = [];
  if (type !== facts.type) settings.push(property(YARN_SITE_FILE, SCHEDULER_CLASS, KIND_SETTINGS[type].className));
  settings.push(...KIND_SETTINGS[type].queuePolicy(policy, facts));
  return settings;
}

/** How each kind's settings are written; the settings above that depend on the kind are read here. */
interface KindSettings {
  /** The full class name yarn.resourcemanager.scheduler.class takes. */
  readonly className: string;
  /** Queue `queue`'s AM limit set to `share`. */
  amShare(queue: string, share: string): HadoopSetting;
  /** At most `limit` apps running at once (the max-apps policy `spec`). */
  maxApps(limit: string, spec: string, facts: SchedulerFacts): HadoopSetting[];
  /** Every queue ordering its apps by `policy` (one of the kind's leaf policies). */
  queuePolicy(policy: string, facts: SchedulerFacts): HadoopSetting[];
}

/**
 * A new kind adds its entry (the Record's type makes a missing one a compile error, rather than
 * a fall-through to another kind's settings).
 */
const KIND_SETTINGS: Readonly<Record<SchedulerType, KindSettings>> = {
  capacity: {
    className: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler',
    amShare: (queue, share) => property(CAPACITY_FILE, `yarn.scheduler.capacity.${queue}.maximum-am-resource-percent`, share),
    // The CapacityScheduler's maximum-applications rejects apps past it; max-apps holds them.
    maxApps: (limit, spec) => [
      notStock(
        `at most ${limit} apps running at once (${spec}): no stock CapacityScheduler setting holds apps so; ` +
          `maximum-applications rejects those past it (a switch to the FairScheduler's maxRunningApps does hold them)`,
      ),
    ],
    // Each leaf names its app ordering; fifo is the default.
    queuePolicy: (policy, facts) =>
      leaves(facts).map((queue) => property(CAPACITY_FILE, `yarn.scheduler.capacity.${queue}.ordering-policy`, policy)),
  },
  fair: {
    className: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler',
    amShare: (queue, share) => queueElement(queue, 'maxAMShare', share),
    // FairScheduler holds apps past maxRunningApps, as max-apps does. max-apps replaces the AM
    // limits, so it is maxRunningApps with each queue's maxAMShare off (-1.0 disables it).
    maxApps: (limit, _spec, facts) => [
      queueElement('root', 'maxRunningApps', limit),
      ...leaves(facts).map((queue) => queueElement(queue, 'maxAMShare', '-1.0')),
    ],
    queuePolicy: (policy) => [
      {
        file: FAIR_FILE,
        target: null,
        text: `<defaultQueueSchedulingPolicy>${policy}</defaultQueueSchedulingPolicy> in the allocation file (${FAIR_FILE}), and no queue overriding it with <schedulingPolicy>`,
      },
    ],
  },
};

/**
 * A unified-style diff of one setting against the user's file (`fileText`, named `fileName`):
 * the line that changes, or the line added; null when the setting is not one a file holds or
 * its place in the file cannot be found.
 */
export function settingDiff(setting: HadoopSetting, fileName: string, fileText: string): string[] | null {
  const target = setting.target;
  if (target === null) return null;
  const lines = fileText.split('\n');
  const header = [`--- ${fileName}`, `+++ ${fileName} (advised)`];
  if (target.kind === 'property') {
    const at = lines.findIndex((line) => line.includes(`<name>${target.name}</name>`));
    if (at < 0) {
      const end = lines.findIndex((line) => line.includes('</configuration>'));
      if (end < 0) return null;
      return [
        ...header,
        `@@ -${end + 1} +${end + 1},5 @@`,
        '+  <property>',
        `+    <name>${target.name}</name>`,
        `+    <value>${target.value}</value>`,
        '+  </property>',
        ` ${lines[end]}`,
      ];
    }
    // The value on the name's line or one of the next few, as these files are written.
    for (let i = at; i < Math.min(lines.length, at + 4); i++) {
      const line = lines[i]!;
      if (/<value>[^<]*<\/value>/.test(line)) {
        return [...header, `@@ -${i + 1} +${i + 1} @@`, `-${line}`, `+${line.replace(/<value>[^<]*<\/value>/, `<value>${target.value}</value>`)}`];
      }
    }
    return null;
  }
  // An allocation-file queue: its element on the queue's own lines, else added after its opening tag.
  const queueName = target.queue.split('.').pop()!;
  const element = new RegExp(`<${target.element}>[^<]*</${target.element}>`);
  const replacement = `<${target.element}>${target.value}</${target.element}>`;
  // The root queue is written around every other queue in an allocation file; where depends on
  // how the file is laid out, so no line is proposed for it.
  if (target.queue === 'root') return null;
  const open = lines.findIndex((line) => new RegExp(`<queue\\s+name="(root\\.)?${escapeRegExp(queueName)}"`).test(line));
  if (open < 0) return null;
  for (let i = open; i < lines.length; i++) {
    const line = lines[i]!;
    if (element.test(line)) return [...header, `@@ -${i + 1} +${i + 1} @@`, `-${line}`, `+${line.replace(element, replacement)}`];
    if (line.includes('</queue>')) break;
  }
  const line = lines[open]!;
  const opening = /<queue\b[^>]*>/.exec(line)!;
  const end = opening.index + opening[0].length;
  return [...header, `@@ -${open + 1} +${open + 1} @@`, `-${line}`, `+${line.slice(0, end)}${replacement}${line.slice(end)}`];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
