// capacity-scheduler.xml (plus any yarn.scheduler.capacity.* in yarn-site.xml beneath it): the
// queue tree with its capacities, limits and per-queue settings, the calculator and the
// scheduler-wide admission settings, each property judged. This file merges the properties,
// builds the tree and finishes it; capacity-scheduler-wide.ts and capacity-queue-settings.ts
// judge the two kinds of property.

import type { CapacitySchedulerSettings } from '../../model/cluster.js';
import type { QueueConfig } from '../../model/queues.js';
import type { ResourceCalculatorName } from '../../model/resources.js';
import type { CapacityFile, CapacityGathered } from './capacity-import.js';
import { judgeQueueProperty } from './capacity-queue-settings.js';
import { judgeSchedulerWide } from './capacity-scheduler-wide.js';
import { finding, FindingList } from './findings.js';
import type { ConfigFinding, FindingCount, FindingKind } from './findings.js';
import { CAPACITY_PREFIX, classifyKnownProperty, isSwitchedOn, propertySource, unknownProperty } from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { freezeQueueDraft, queueDraft } from './queue-draft.js';
import type { QueueDraft } from './queue-draft.js';
import { listValue } from './values.js';
import { HadoopConfigError } from './xml.js';
import type { HadoopConfiguration, HadoopProperty } from './xml.js';

/** What capacity-scheduler.xml sets; a scheduler-wide setting it leaves out is absent. */
export interface CapacitySchedulerImport {
  readonly resourceCalculator: ResourceCalculatorName | null;
  readonly capacity: Partial<CapacitySchedulerSettings>;
  /** root's children: the whole tree, which replaces any other. */
  readonly queues: readonly QueueConfig[];
  /** root's max-parallel-apps (its own, else the scheduler-wide default); null when the file sets neither. */
  readonly rootMaxRunningApps: number | null;
  readonly findings: readonly ConfigFinding[];
  readonly findingCounts: readonly FindingCount[];
  readonly notes: readonly string[];
}

export interface CapacitySchedulerOptions {
  readonly context: ImportContext;
  /** yarn.scheduler.capacity.* from yarn-site.xml: read first, the file overrides them. */
  readonly inherited?: readonly HadoopProperty[];
}

/** Judge every property and build the queue tree. */
export function importCapacityScheduler(conf: HadoopConfiguration, options: CapacitySchedulerOptions): CapacitySchedulerImport {
  const findings = new FindingList(conf);
  const merged = mergeProperties(conf, options.inherited ?? [], options.context, findings);
  const get = (rest: string): HadoopProperty | undefined => merged.get(CAPACITY_PREFIX + rest);
  const { top, drafts } = queueTree(conf, get);
  const nonEmpty = (rest: string): boolean => {
    const p = get(rest);
    return p !== undefined && p.value !== '';
  };
  const file: CapacityFile = {
    context: options.context,
    get,
    drafts,
    asyncOn: isSwitchedOn(get('schedule-asynchronously.enable')),
    multiNodeOn: isSwitchedOn(get('multi-node-placement-enabled')),
    mappingsOn: nonEmpty('queue-mappings'),
    workflowOn: nonEmpty('workflow-priority-mappings'),
  };
  const gathered: CapacityGathered = {
    resourceCalculator: null,
    capacity: {},
    defaultMaxParallelApps: null,
    rootMaxParallelApps: null,
    capacityGiven: new Set(),
  };

  for (const property of merged.values()) {
    const source = propertySource(property);
    const rest = property.name.slice(CAPACITY_PREFIX.length);
    const add = (kind: FindingKind, reason: string, target: string | null = null): void => {
      findings.push(finding(source, kind, reason, target));
    };
    const judged = { property, source, rest, add };
    if (!rest.startsWith('root.') && rest !== 'root') judgeSchedulerWide(judged, file, gathered, findings);
    else judgeQueueProperty(judged, file, gathered);
  }

  const notes = finishQueues(conf, drafts, gathered);
  const { resourceCalculator, capacity, rootMaxParallelApps, defaultMaxParallelApps } = gathered;
  return {
    resourceCalculator,
    capacity,
    queues: top.map(freezeQueueDraft),
    rootMaxRunningApps: rootMaxParallelApps ?? defaultMaxParallelApps,
    findings: findings.findings,
    findingCounts: findings.findingCounts,
    notes,
  };
}

/**
 * The CapacityScheduler's configuration is yarn-site.xml with capacity-scheduler.xml on top:
 * the file's other properties are judged here, and a capacity property set in both is recorded
 * as overridden.
 */
function mergeProperties(
  conf: HadoopConfiguration,
  inherited: readonly HadoopProperty[],
  context: ImportContext,
  findings: FindingList,
): Map<string, HadoopProperty> {
  const merged = new Map<string, HadoopProperty>();
  for (const p of inherited) merged.set(p.name, p);
  for (const p of conf.properties) {
    if (!p.name.startsWith(CAPACITY_PREFIX)) {
      findings.push(classifyKnownProperty(p, context) ?? unknownProperty(p, 'capacity-scheduler.xml'));
      continue;
    }
    const below = merged.get(p.name);
    if (below !== undefined) {
      findings.push(finding(propertySource(below), 'ignored', `${conf.file}:${p.line} sets it too, and wins`));
    }
    merged.set(p.name, p);
  }
  return merged;
}

/** The tree, from yarn.scheduler.capacity.<path>.queues down: root's children, and every queue by path. */
function queueTree(conf: HadoopConfiguration, get: (rest: string) => HadoopProperty | undefined): { top: QueueDraft[]; drafts: Map<string, QueueDraft> } {
  if (get('root.queues') === undefined) {
    throw new HadoopConfigError(
      `${conf.file} sets no ${CAPACITY_PREFIX}root.queues; the CapacityScheduler needs the list of root's queues (the stock file has "default")`,
    );
  }
  const drafts = new Map<string, QueueDraft>();
  const build = (path: string): QueueDraft[] => {
    const list = get(`${path}.queues`);
    if (list === undefined) return [];
    return listValue(propertySource(list)).map((name) => {
      const childPath = `${path}.${name}`;
      const draft = queueDraft(name, childPath);
      drafts.set(childPath, draft);
      draft.children.push(...build(childPath));
      return draft;
    });
  };
  return { top: build('root'), drafts };
}

/** What the queues get from the file as a whole: 0% when they set no capacity, and the default max-parallel-apps. */
function finishQueues(conf: HadoopConfiguration, drafts: ReadonlyMap<string, QueueDraft>, gathered: CapacityGathered): string[] {
  const notes: string[] = [];
  for (const draft of drafts.values()) {
    if (!gathered.capacityGiven.has(draft)) {
      draft.capacityPercent = 0;
      notes.push(
        `${conf.file}: ${draft.path} sets no ${CAPACITY_PREFIX}${draft.path}.capacity; using 0% as Hadoop 3.x does (Hadoop 2.7 refuses the file)`,
      );
    }
    if (gathered.defaultMaxParallelApps !== null && draft.maxRunningApps === null) draft.maxRunningApps = gathered.defaultMaxParallelApps;
  }
  return notes;
}
