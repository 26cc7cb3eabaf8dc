// A change `advise` recommends, written as what an operator sets: the Hadoop property and value
// and the file it goes in (capacity-scheduler.xml, the FairScheduler allocation file,
// yarn-site.xml), or the node count; a change with no stock Hadoop setting (rmreplay's own
// admission policies and adaptive controllers) says so rather than naming a property.

/** A change as advise tries it: an admission policy, a scheduler combination, or a node count. */
export type AdvisedChange =
  | { readonly kind: 'as-configured' }
  | { readonly kind: 'policy'; readonly spec: string; readonly parameters: Readonly<Record<string, unknown>> }
  | { readonly kind: 'scheduler'; readonly scheduler: string }
  | { readonly kind: 'nodes'; readonly nodes: number; readonly configuredNodes: number };

/** What the cluster runs now, as far as naming a setting needs it. */
export interface SchedulerFacts {
  readonly type: 'capacity' | 'fair';
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
const SCHEDULER_CLASSES: Readonly<Record<'capacity' | 'fair', string>> = {
  capacity: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler',
  fair: 'org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler',
};

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
    return facts.type === 'capacity'
      ? leaves(facts).map((queue) => property(CAPACITY_FILE, `yarn.scheduler.capacity.${queue}.maximum-am-resource-percent`, share))
      : leaves(facts).map((queue) => queueElement(queue, 'maxAMShare', share));
  }
  if (name === 'max-apps') {
    const limit = String(parameters['maxApps']);
    // FairScheduler holds apps past maxRunningApps, as max-apps does; the CapacityScheduler's
    // maximum-applications rejects them instead.
    // max-apps replaces the AM limits, so on the FairScheduler it is maxRunningApps with each
    // queue's maxAMShare off (-1.0 disables it).
    return facts.type === 'fair'
      ? [queueElement('root', 'maxRunningApps', limit), ...leaves(facts).map((queue) => queueElement(queue, 'maxAMShare', '-1.0'))]
      : [
          notStock(
            `at most ${limit} apps running at once (${spec}): no stock CapacityScheduler setting holds apps so; ` +
              `maximum-applications rejects those past it (a switch to the FairScheduler's maxRunningApps does hold them)`,
          ),
        ];
  }
  if (name === 'autoadmin' || name === 'marp-feedback' || name === 'lookahead') {
    return [notStock(`${spec}: an adaptive admission controller, not a stock Hadoop setting (it runs in front of the scheduler)`)];
  }
  return [notStock(`${spec}: rmreplay's own admission policy, not a stock Hadoop setting`)];
}

/** `capacity-fifo`, `fair-drf`, ...: the scheduler class if it changes, then the queues' policy. */
function schedulerSettings(scheduler: string, facts: SchedulerFacts): HadoopSetting[] {
  const dash = scheduler.indexOf('-');
  const type = scheduler.slice(0, dash) as 'capacity' | 'fair';
  const policy = scheduler.slice(dash + 1);
  const settings: HadoopSetting[] = [];
  if (type !== facts.type) settings.push(property(YARN_SITE_FILE, SCHEDULER_CLASS, SCHEDULER_CLASSES[type]));
  if (type === 'fair') {
    settings.push({
      file: FAIR_FILE,
      target: null,
      text: `<defaultQueueSchedulingPolicy>${policy}</defaultQueueSchedulingPolicy> in the allocation file (${FAIR_FILE}), and no queue overriding it with <schedulingPolicy>`,
    });
  }
  return settings;
}

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
