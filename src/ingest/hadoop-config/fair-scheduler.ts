// The FairScheduler allocation file (fair-scheduler.xml): nested queues (and legacy pools) with
// their shares, weights, limits and policies, the file-wide defaults and the placement
// policy, each element judged.

import type { FairSchedulerSettings } from '../../model/cluster.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { UNBOUNDED } from '../../model/resources.js';
import type { Resources } from '../../model/resources.js';
import { finding, FindingList } from './findings.js';
import type { ConfigFinding, FindingCount, FindingKind, FindingSource } from './findings.js';
import { REASONS, whileSwitchedOn } from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { freezeQueueDraft, queueDraft } from './queue-draft.js';
import type { QueueDraft } from './queue-draft.js';
import { integerValue, invalidValue, numberValue, parseFairResource } from './values.js';
import type { FairResource } from './values.js';
import { HadoopConfigError, parseXmlDocument } from './xml.js';
import type { XmlElement } from './xml.js';

/** What the allocation file sets; a file-wide setting it leaves out is absent. */
export interface FairSchedulerImport {
  /** root's children: the whole tree, which replaces any other. */
  readonly queues: readonly QueueConfig[];
  /** root's maxRunningApps (its own, else queueMaxAppsDefault); null when the file sets neither. */
  readonly rootMaxRunningApps: number | null;
  readonly fair: Partial<FairSchedulerSettings>;
  readonly findings: readonly ConfigFinding[];
  readonly findingCounts: readonly FindingCount[];
  readonly notes: readonly string[];
}

export interface FairSchedulerOptions {
  readonly context: ImportContext;
}

/** Parse the text of an allocation file; the top-level element must be <allocations>. */
export function parseAllocationFile(text: string, file: string): XmlElement {
  return parseXmlDocument(text, file, 'allocations');
}

/** Whether the file has a queuePlacementPolicy (which overrides two yarn-site.xml settings). */
export function hasPlacementPolicy(allocations: XmlElement): boolean {
  return allocations.children.some((c) => c.name === 'queuePlacementPolicy');
}

const POLICY_CLASSES: Readonly<Record<string, QueuePolicyName>> = {
  FairSharePolicy: 'fair',
  FifoPolicy: 'fifo',
  DominantResourceFairnessPolicy: 'drf',
};

const QUEUE_TAGS = new Set(['queue', 'pool']);

const PREEMPTION_ELEMENTS = new Set([
  'minSharePreemptionTimeout',
  'fairSharePreemptionTimeout',
  'fairSharePreemptionThreshold',
  'allowPreemptionFrom',
  'defaultMinSharePreemptionTimeout',
  'defaultFairSharePreemptionTimeout',
  'defaultFairSharePreemptionThreshold',
]);

const ACL_ELEMENTS = new Set([
  'aclSubmitApps',
  'aclAdministerApps',
  'aclAdministerReservations',
  'aclListReservations',
  'aclSubmitReservations',
]);

/** Judge every element of the allocation file and build the queue tree. */
export function importFairScheduler(allocations: XmlElement, file: string, options: FairSchedulerOptions): FairSchedulerImport {
  const { context } = options;
  const findings = new FindingList();
  const notes: string[] = [];
  const fair: { -readonly [K in keyof FairSchedulerSettings]?: FairSchedulerSettings[K] } = {};
  const sourceOf = (element: XmlElement, property: string, value = element.text): FindingSource & { unresolved: null } => ({
    file,
    line: element.line,
    property,
    value,
    unresolved: null,
  });
  const record = (source: FindingSource, kind: FindingKind, reason: string, target: string | null = null): void => {
    findings.push(finding(source, kind, reason, target));
  };
  const preemption = (): readonly [FindingKind, string] =>
    whileSwitchedOn(context, 'fairPreemption');
  const policyOf = (element: XmlElement, property: string): QueuePolicyName => {
    const text = element.text;
    const lower = text.toLowerCase();
    if (lower === 'fair' || lower === 'fifo' || lower === 'drf') return lower;
    const byClass = POLICY_CLASSES[text.slice(text.lastIndexOf('.') + 1)];
    if (byClass !== undefined) return byClass;
    throw invalidValue(sourceOf(element, property), 'is not a scheduling policy rmreplay models: fair, fifo or drf');
  };
  const resourceOf = (element: XmlElement, property: string): FairResource => {
    try {
      return parseFairResource(element.text);
    } catch (error) {
      throw invalidValue(sourceOf(element, property), (error as Error).message);
    }
  };

  // Elements Hadoop keeps one of: the last wins.
  const lastOf = (elements: readonly XmlElement[]): Map<string, XmlElement> => {
    const last = new Map<string, XmlElement>();
    for (const e of elements) if (!QUEUE_TAGS.has(e.name) && e.name !== 'user') last.set(e.name, e);
    return last;
  };
  /** An element set again later among its siblings (`last`, from lastOf) is recorded as ignored. */
  const overridden = (element: XmlElement, last: ReadonlyMap<string, XmlElement>, source: FindingSource): boolean => {
    const winner = last.get(element.name)!;
    if (winner === element) return false;
    record(source, 'ignored', `set again at line ${winner.line}; the last one wins`);
    return true;
  };
  const top = allocations.children;
  const topLast = lastOf(top);
  // A user's limit may be given more than once, in one <user> element or several: Hadoop keeps the last.
  const lastUserLimit = new Map<string, XmlElement>();
  for (const e of top) {
    if (e.name !== 'user') continue;
    for (const c of e.children) if (c.name === 'maxRunningApps') lastUserLimit.set(e.attributes.name ?? '', c);
  }
  const alias = (name: string, legacy: string): XmlElement | undefined => {
    const a = topLast.get(name);
    const b = topLast.get(legacy);
    if (a === undefined || b === undefined) return a ?? b;
    return a.line >= b.line ? a : b;
  };

  // File-wide defaults first: they apply to queues wherever they appear in the file.
  const defaultPolicyElement = alias('defaultQueueSchedulingPolicy', 'defaultQueueSchedulingMode');
  let defaultPolicy: QueuePolicyName = 'fair';
  if (defaultPolicyElement !== undefined) {
    defaultPolicy = policyOf(defaultPolicyElement, defaultPolicyElement.name);
    if (defaultPolicy === 'fifo') {
      throw invalidValue(sourceOf(defaultPolicyElement, defaultPolicyElement.name), 'cannot be fifo (Hadoop refuses it: parents cannot be fifo)');
    }
  }
  const maxAppsDefaultElement = topLast.get('queueMaxAppsDefault');
  const maxAppsDefault = maxAppsDefaultElement ? integerValue(sourceOf(maxAppsDefaultElement, 'queueMaxAppsDefault')) : null;
  let rootMaxRunningApps: number | null = null;
  const maxResourcesDefaultElement = topLast.get('queueMaxResourcesDefault');
  const maxResourcesDefault = maxResourcesDefaultElement ? resourceOf(maxResourcesDefaultElement, 'queueMaxResourcesDefault') : null;

  const drafts: QueueDraft[] = [];
  const maxResourcesDefaultTargets: string[] = [];
  const rootElements = top.filter((e) => QUEUE_TAGS.has(e.name));
  const rootElement = rootElements.find((e) => (e.attributes.name ?? '').trim().toLowerCase() === 'root');
  if (rootElement !== undefined && rootElements.length > 1) {
    throw new HadoopConfigError(`${file}:${rootElement.line}: with a <${rootElement.name} name="root">, every other queue must be inside it`);
  }

  /**
   * Set a maxResources (or the file default) on a queue whose ancestors' maximum shares
   * multiply to `parentFraction` of the cluster; returns how the setting was judged.
   */
  const applyMax = (draft: QueueDraft, resource: FairResource, parentFraction: number, where: string): { kind: FindingKind; reason: string } => {
    const judged = judgeMax(resource, parentFraction);
    if (judged.maxResources !== null) draft.maxResources = judged.maxResources;
    if (judged.maximumCapacityPercent !== null) draft.maximumCapacityPercent = judged.maximumCapacityPercent;
    if (judged.capped) {
      notes.push(`${where} ${draft.path}: ${judged.clusterPercent}% of the cluster is more than its parent's maximum; capped at the parent's`);
    }
    return judged;
  };

  const buildQueue = (element: XmlElement, parentPath: string, parentFraction: number): QueueDraft => {
    const name = (element.attributes.name ?? '').trim();
    if (name === '') throw new HadoopConfigError(`${file}:${element.line}: a <${element.name}> without a name`);
    if (name.includes('.')) throw new HadoopConfigError(`${file}:${element.line}: queue name "${name}" has a period, which Hadoop refuses`);
    const path = `${parentPath}.${name}`;
    const kindLabel = element.name === 'pool' ? 'pool' : 'queue';
    const label = (tag: string): string => `${kindLabel}[${path}]/${tag}`;
    const draft = queueDraft(name, path);
    const childQueues = element.children.filter((c) => QUEUE_TAGS.has(c.name));
    const isParent = childQueues.length > 0 || element.attributes.type === 'parent';
    for (const [attribute, value] of Object.entries(element.attributes)) {
      const source = sourceOf(element, `${kindLabel}[${path}]@${attribute}`, value);
      if (attribute === 'name') continue;
      if (attribute !== 'type') record(source, 'unknown', 'not an attribute of a queue');
      else if (value !== 'parent') record(source, 'ignored', 'Hadoop reads only type="parent"');
      else if (childQueues.length > 0) record(source, 'used', 'applied: a parent queue');
      else {
        record(source, 'unsupported', 'a parent queue without child queues (for queues created at submission) is not modelled: the replay treats it as a leaf');
      }
    }
    const last = lastOf(element.children);
    let hasMax = false;
    for (const child of element.children) {
      if (QUEUE_TAGS.has(child.name)) continue;
      const source = sourceOf(child, label(child.name));
      if (overridden(child, last, source)) continue;
      const target = (fieldName: string): string => `scheduler.queues[${path}].${fieldName}`;
      switch (child.name) {
        case 'minResources': {
          const resource = resourceOf(child, label(child.name));
          if (resource.kind === 'percent') {
            record(source, 'ignored', 'Hadoop gives no min share for a percentage (only maxResources takes one; 2.7 refuses the file)');
            notes.push(`${file}:${child.line} ${path}: minResources "${child.text}" is a percentage, which gives no min share in Hadoop; the queue gets none`);
          } else {
            // Hadoop reads a resource left out of a name=value minResources as 0.
            draft.minResources = { memoryMb: resource.memoryMb ?? 0, vcores: resource.vcores ?? 0 };
            const others = resource.others.length > 0 ? `; ${resource.others.join(', ')} is not modelled (memory and vcores only)` : '';
            record(source, resource.others.length > 0 ? 'unsupported' : 'used', `applied${others}`, target('minResources'));
          }
          break;
        }
        case 'maxResources': {
          hasMax = true;
          const { kind, reason } = applyMax(draft, resourceOf(child, label(child.name)), parentFraction, `${file}:${child.line}`);
          record(source, kind, reason, target(draft.maxResources ? 'maxResources' : 'maximumCapacityPercent'));
          break;
        }
        case 'weight':
          draft.weight = numberValue(source);
          record(source, 'used', 'applied', target('weight'));
          break;
        case 'maxRunningApps':
          draft.maxRunningApps = integerValue(source);
          record(source, 'used', 'applied', target('maxRunningApps'));
          break;
        case 'maxAMShare':
          if (isParent) {
            record(source, 'ignored', 'on a parent queue: Hadoop 2.7 ignores it, 3.x refuses the file');
            break;
          }
          // Hadoop caps maxAMShare at 1.
          draft.maxAmShare = Math.min(numberValue(source), 1);
          record(source, 'used', 'applied', target('maxAmShare'));
          break;
        case 'schedulingPolicy':
        case 'schedulingMode':
          draft.schedulingPolicy = policyOf(child, label(child.name));
          record(source, 'used', 'applied', target('schedulingPolicy'));
          break;
        case 'maxChildResources':
          record(source, 'unsupported', 'queues created at submission are not capped: the replay gives them no maximum');
          break;
        case 'maxContainerAllocation':
          record(source, 'unsupported', 'per-queue maximum allocations are not modelled: the scheduler-wide maximum applies');
          break;
        case 'reservation':
          record(source, ...whileSwitchedOn(context, 'reservationSystem'));
          break;
        default:
          if (PREEMPTION_ELEMENTS.has(child.name)) record(source, ...preemption());
          else if (ACL_ELEMENTS.has(child.name)) record(source, 'ignored', REASONS.acl);
          else record(source, 'unknown', 'not a queue element rmreplay knows; Hadoop skips it');
      }
    }
    if (!hasMax && maxResourcesDefault !== null) {
      applyMax(draft, maxResourcesDefault, parentFraction, `${file}:${maxResourcesDefaultElement!.line} queueMaxResourcesDefault for`);
      maxResourcesDefaultTargets.push(path);
    }
    if (draft.maxRunningApps === null && maxAppsDefault !== null) draft.maxRunningApps = maxAppsDefault;
    const fraction = parentFraction * ((draft.maximumCapacityPercent ?? 100) / 100);
    draft.children.push(...childQueues.map((c) => buildQueue(c, path, fraction)));
    return draft;
  };

  /** root's own settings: most have no field in the model. */
  const rootSettings = (element: XmlElement): void => {
    const last = lastOf(element.children);
    for (const child of element.children) {
      if (QUEUE_TAGS.has(child.name)) continue;
      const source = sourceOf(child, `${element.name}[root]/${child.name}`);
      if (overridden(child, last, source)) continue;
      switch (child.name) {
        case 'schedulingPolicy':
        case 'schedulingMode': {
          const policy = policyOf(child, source.property);
          if (policy === 'fifo') throw invalidValue(source, 'cannot be fifo on root (Hadoop allows fifo on leaf queues only)');
          fair.rootSchedulingPolicy = policy;
          record(source, 'used', 'applied', 'scheduler.fair.rootSchedulingPolicy');
          break;
        }
        case 'weight':
        case 'minResources':
          record(source, 'ignored', 'root has no siblings to share with');
          break;
        case 'maxAMShare':
          record(source, 'ignored', 'root is a parent queue: Hadoop 2.7 ignores it, 3.x refuses the file');
          break;
        case 'maxRunningApps':
          rootMaxRunningApps = integerValue(source);
          record(source, 'used', 'applied', 'scheduler.rootMaxRunningApps');
          break;
        case 'maxResources':
        case 'maxChildResources':
        case 'maxContainerAllocation':
          record(source, 'unsupported', 'limits on root are not modelled: root may use the whole cluster');
          break;
        default:
          if (PREEMPTION_ELEMENTS.has(child.name)) record(source, ...preemption());
          else if (ACL_ELEMENTS.has(child.name)) record(source, 'ignored', REASONS.acl);
          else record(source, 'unknown', 'not a queue element rmreplay knows; Hadoop skips it');
      }
    }
  };

  const placementPolicy = (element: XmlElement, source: FindingSource): void => {
    const rules = element.children.map((rule) => ({
      name: rule.name === 'rule' ? (rule.attributes.name ?? '') : `<${rule.name}>`,
      create: (rule.attributes.create ?? 'true').toLowerCase() !== 'false',
      simple:
        rule.name === 'rule' &&
        rule.children.length === 0 &&
        Object.keys(rule.attributes).every((a) => a === 'name' || a === 'create' || (a === 'queue' && rule.attributes.name === 'default')),
      queue: rule.attributes.queue,
    }));
    const rendered = rules.map((r) => `${r.name}${r.create ? '' : '(create=false)'}${r.queue ? `(queue=${r.queue})` : ''}`).join(', ');
    const placed = { ...source, value: rendered };
    const names = rules.map((r) => r.name);
    const specified = rules[0];
    const defaultQueueOk = rules.every((r) => r.name !== 'default' || r.queue === undefined || r.queue === 'default' || r.queue === 'root.default');
    const simple = rules.every((r) => r.simple) && defaultQueueOk && specified?.name === 'specified';
    const shapeUser = names.length >= 2 && names[1] === 'user' && (names.length === 2 || (names.length === 3 && names[2] === 'default'));
    const shapeDefault = names.length === 2 && names[1] === 'default';
    if (simple && shapeUser && rules[1]!.create === specified.create) {
      fair.userAsDefaultQueue = true;
      fair.allowUndeclaredPools = specified.create;
      record(placed, 'used', 'applied: the specified queue, else root.<user>', 'scheduler.fair.userAsDefaultQueue, scheduler.fair.allowUndeclaredPools');
    } else if (simple && shapeDefault) {
      fair.userAsDefaultQueue = false;
      fair.allowUndeclaredPools = specified.create;
      record(placed, 'used', 'applied: the specified queue, else root.default', 'scheduler.fair.userAsDefaultQueue, scheduler.fair.allowUndeclaredPools');
    } else {
      record(
        placed,
        'unsupported',
        'only the placement policies "specified, user[, default]" and "specified, default" are modelled: the replay places apps in the queue the trace names, else by yarn.scheduler.fair.user-as-default-queue',
      );
    }
  };

  for (const element of top) {
    const source = sourceOf(element, element.name);
    if (QUEUE_TAGS.has(element.name)) {
      if (element === rootElement) {
        rootSettings(element);
        for (const child of element.children.filter((c) => QUEUE_TAGS.has(c.name))) drafts.push(buildQueue(child, 'root', 1));
      } else drafts.push(buildQueue(element, 'root', 1));
      continue;
    }
    if (element.name === 'user') {
      const user = element.attributes.name ?? '';
      if (element.children.length === 0) record(sourceOf(element, `user[${user}]`), 'ignored', 'a user with no settings');
      for (const child of element.children) {
        const childSource = sourceOf(child, `user[${user}]/${child.name}`);
        if (child.name === 'maxRunningApps') {
          const winner = lastUserLimit.get(user)!;
          if (user === '') record(childSource, 'ignored', 'a user element without a name matches no user');
          else if (winner !== child) record(childSource, 'ignored', `set again for ${user} at line ${winner.line}; the last one wins`);
          else {
            fair.userMaxApps = { ...fair.userMaxApps, [user]: integerValue(childSource) };
            record(childSource, 'used', 'applied', `scheduler.fair.userMaxApps.${user}`);
          }
        } else record(childSource, 'unknown', 'not a user element rmreplay knows; Hadoop skips it');
      }
      continue;
    }
    if (overridden(element, topLast, source)) continue;
    switch (element.name) {
      case 'defaultQueueSchedulingPolicy':
      case 'defaultQueueSchedulingMode':
        if (element !== defaultPolicyElement) {
          record(source, 'ignored', `${defaultPolicyElement!.name} is set too, later in the file, and wins`);
          break;
        }
        fair.defaultQueueSchedulingPolicy = defaultPolicy;
        record(source, 'used', 'applied', 'scheduler.fair.defaultQueueSchedulingPolicy');
        break;
      case 'queueMaxAMShareDefault':
        fair.queueMaxAmShareDefault = Math.min(numberValue(source), 1);
        record(source, 'used', 'applied', 'scheduler.fair.queueMaxAmShareDefault');
        break;
      case 'queueMaxAppsDefault':
        fair.queueMaxAppsDefault = maxAppsDefault;
        record(
          source,
          'used',
          'applied as maxRunningApps to root, every declared queue that sets none, and queues created at submission',
          'scheduler.rootMaxRunningApps, scheduler.queues[*].maxRunningApps, scheduler.fair.queueMaxAppsDefault',
        );
        break;
      case 'queueMaxResourcesDefault':
        // Judged after the queues are built, once it is known where it applied.
        break;
      case 'userMaxAppsDefault':
        fair.userMaxAppsDefault = integerValue(source);
        record(source, 'used', 'applied', 'scheduler.fair.userMaxAppsDefault');
        break;
      case 'queuePlacementPolicy':
        placementPolicy(element, source);
        break;
      case 'reservation-agent':
      case 'reservation-planner':
      case 'reservation-policy':
        record(source, ...whileSwitchedOn(context, 'reservationSystem'));
        break;
      default:
        if (PREEMPTION_ELEMENTS.has(element.name)) record(source, ...preemption());
        else record(source, 'unknown', 'not an allocation file element rmreplay knows; Hadoop logs "Bad element" and skips it');
    }
  }

  if (maxResourcesDefaultElement !== undefined && maxResourcesDefault !== null) {
    const { kind, reason, maxResources } = judgeMax(maxResourcesDefault, 1);
    const targets = maxResourcesDefaultTargets.length > 0 ? maxResourcesDefaultTargets.join(', ') : 'no queue (every queue sets its own)';
    record(
      sourceOf(maxResourcesDefaultElement, 'queueMaxResourcesDefault'),
      kind,
      `${reason.replace(/^applied/, `applied to ${targets}`)}; queues created at submission (root.<user>) do not get it`,
      `scheduler.queues[*].${maxResources ? 'maxResources' : 'maximumCapacityPercent'}`,
    );
  }

  const effective = (d: QueueDraft, inherited: QueuePolicyName): QueuePolicyName => d.schedulingPolicy ?? inherited;
  const checkPolicies = (parentPolicy: QueuePolicyName, parentPath: string, children: readonly QueueDraft[]): void => {
    for (const child of children) {
      const policy = effective(child, defaultPolicy);
      if (parentPolicy === 'fair' && policy === 'drf') {
        notes.push(`${file}: ${child.path} uses drf under ${parentPath}, which uses fair: Hadoop 3.x refuses this, 2.7 accepts it`);
      }
      checkPolicies(policy, child.path, child.children);
    }
  };
  checkPolicies(fair.rootSchedulingPolicy ?? defaultPolicy, 'root', drafts);

  findings.findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { queues: drafts.map(freezeQueueDraft), rootMaxRunningApps: rootMaxRunningApps ?? maxAppsDefault, fair, findings: findings.findings, findingCounts: findings.findingCounts, notes };
}

interface JudgedMax {
  readonly kind: FindingKind;
  readonly reason: string;
  readonly maxResources: Resources | null;
  readonly maximumCapacityPercent: number | null;
  /** The percentage of the cluster asked for, when it is one. */
  readonly clusterPercent: number | null;
  /** It was more than the parent's maximum, and cut to it. */
  readonly capped: boolean;
}

/**
 * A maxResources as model fields. A percentage is of the cluster in Hadoop, while the model's
 * maximumCapacityPercent is of the parent (the FairScheduler multiplies them along the path),
 * so it is divided by what the ancestors' maximums leave (`parentFraction`).
 */
function judgeMax(resource: FairResource, parentFraction: number): JudgedMax {
  const others = resource.others.length > 0 ? `; ${resource.others.join(', ')} is not modelled (memory and vcores only)` : '';
  const kind: FindingKind = resource.others.length > 0 ? 'unsupported' : 'used';
  if (resource.kind === 'absolute') {
    const unbounded = resource.memoryMb === null || resource.vcores === null ? `; a resource left out is unbounded (${UNBOUNDED})` : '';
    return {
      kind,
      reason: `applied${unbounded}${others}`,
      maxResources: { memoryMb: resource.memoryMb ?? UNBOUNDED, vcores: resource.vcores ?? UNBOUNDED },
      maximumCapacityPercent: null,
      clusterPercent: null,
      capped: false,
    };
  }
  const wanted = parentFraction > 0 ? resource.memoryPercent / parentFraction : 100;
  const percent = Math.min(wanted, 100);
  const relative = parentFraction === 1 ? '' : ` (${round(percent)}% of its parent's maximum)`;
  const common = { maxResources: null, maximumCapacityPercent: percent, clusterPercent: resource.memoryPercent, capped: wanted > 100 };
  if (resource.memoryPercent !== resource.vcoresPercent) {
    return {
      ...common,
      kind: 'unsupported',
      reason: `different percentages for memory and CPU are not modelled: the replay uses the memory one, ${resource.memoryPercent}% of the cluster, for both${relative}${others}`,
    };
  }
  return { ...common, kind, reason: `applied: ${resource.memoryPercent}% of the cluster${relative}${others}` };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
