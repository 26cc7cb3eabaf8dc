// The allocation file's <queue> and <pool> elements: a queue's attributes and settings applied
// to its draft, with the file-wide defaults for what it leaves out, and root's own settings,
// most of which have no field in the model.

import type { QueuePolicyName } from '../../model/queues.js';
import { UNBOUNDED } from '../../model/resources.js';
import type { Resources } from '../../model/resources.js';
import { ACL_ELEMENTS, lastOf, PREEMPTION_ELEMENTS, QUEUE_TAGS } from './fair-import.js';
import type { FairImport, FairQueueDefaults } from './fair-import.js';
import type { FindingKind, FindingSource } from './findings.js';
import { REASONS, whileSwitchedOn } from './known-properties.js';
import { queueDraft } from './queue-draft.js';
import type { QueueDraft } from './queue-draft.js';
import { integerValue, invalidValue, numberValue } from './values.js';
import type { FairResource } from './values.js';
import { HadoopConfigError } from './xml.js';
import type { XmlElement } from './xml.js';

/** Where a queue sits: its path and the fraction of the cluster its ancestors' maximums leave. */
interface QueuePlace {
  readonly path: string;
  readonly label: (tag: string) => string;
  readonly isParent: boolean;
  readonly parentFraction: number;
}

/** A queue element below root, with its children, as a draft. */
export function buildQueue(im: FairImport, defaults: FairQueueDefaults, element: XmlElement, parentPath: string, parentFraction: number): QueueDraft {
  const name = (element.attributes.name ?? '').trim();
  if (name === '') throw new HadoopConfigError(`${im.file}:${element.line}: a <${element.name}> without a name`);
  if (name.includes('.')) throw new HadoopConfigError(`${im.file}:${element.line}: queue name "${name}" has a period, which Hadoop refuses`);
  const path = `${parentPath}.${name}`;
  const kindLabel = element.name === 'pool' ? 'pool' : 'queue';
  const draft = queueDraft(name, path);
  const childQueues = element.children.filter((c) => QUEUE_TAGS.has(c.name));
  const place: QueuePlace = {
    path,
    label: (tag) => `${kindLabel}[${path}]/${tag}`,
    isParent: childQueues.length > 0 || element.attributes.type === 'parent',
    parentFraction,
  };
  queueAttributes(im, element, `${kindLabel}[${path}]`, childQueues.length > 0);
  const last = lastOf(element.children);
  let hasMax = false;
  for (const child of element.children) {
    if (QUEUE_TAGS.has(child.name)) continue;
    const source = im.sourceOf(child, place.label(child.name));
    if (im.overridden(child, last, source)) continue;
    if (child.name === 'maxResources') hasMax = true;
    queueSetting(im, draft, place, child, source);
  }
  if (!hasMax && defaults.maxResources !== null) {
    applyMax(im, draft, defaults.maxResources, parentFraction, `${im.file}:${defaults.maxResourcesElement!.line} queueMaxResourcesDefault for`);
    im.maxResourcesDefaultTargets.push(path);
  }
  if (draft.maxRunningApps === null && defaults.maxApps !== null) draft.maxRunningApps = defaults.maxApps;
  const fraction = parentFraction * ((draft.maximumCapacityPercent ?? 100) / 100);
  draft.children.push(...childQueues.map((c) => buildQueue(im, defaults, c, path, fraction)));
  return draft;
}

/** A queue's attributes: only type="parent" means anything. */
function queueAttributes(im: FairImport, element: XmlElement, label: string, hasChildQueues: boolean): void {
  for (const [attribute, value] of Object.entries(element.attributes)) {
    const source = im.sourceOf(element, `${label}@${attribute}`, value);
    if (attribute === 'name') continue;
    if (attribute !== 'type') im.record(source, 'unknown', 'not an attribute of a queue');
    else if (value !== 'parent') im.record(source, 'ignored', 'Hadoop reads only type="parent"');
    else if (hasChildQueues) im.record(source, 'used', 'applied: a parent queue');
    else {
      im.record(source, 'unsupported', 'a parent queue without child queues (for queues created at submission) is not modelled: the replay treats it as a leaf');
    }
  }
}

/** One setting of a queue below root. */
function queueSetting(im: FairImport, draft: QueueDraft, place: QueuePlace, child: XmlElement, source: FindingSource): void {
  const target = (fieldName: string): string => `scheduler.queues[${place.path}].${fieldName}`;
  switch (child.name) {
    case 'minResources': {
      const resource = im.resourceOf(child, place.label(child.name));
      if (resource.kind === 'percent') {
        im.record(source, 'ignored', 'Hadoop gives no min share for a percentage (only maxResources takes one; 2.7 refuses the file)');
        im.notes.push(`${im.file}:${child.line} ${place.path}: minResources "${child.text}" is a percentage, which gives no min share in Hadoop; the queue gets none`);
      } else {
        // Hadoop reads a resource left out of a name=value minResources as 0.
        draft.minResources = { memoryMb: resource.memoryMb ?? 0, vcores: resource.vcores ?? 0 };
        const others = resource.others.length > 0 ? `; ${resource.others.join(', ')} is not modelled (memory and vcores only)` : '';
        im.record(source, resource.others.length > 0 ? 'unsupported' : 'used', `applied${others}`, target('minResources'));
      }
      break;
    }
    case 'maxResources': {
      const { kind, reason } = applyMax(im, draft, im.resourceOf(child, place.label(child.name)), place.parentFraction, `${im.file}:${child.line}`);
      im.record(source, kind, reason, target(draft.maxResources ? 'maxResources' : 'maximumCapacityPercent'));
      break;
    }
    case 'weight':
      draft.weight = numberValue(source);
      im.record(source, 'used', 'applied', target('weight'));
      break;
    case 'maxRunningApps':
      draft.maxRunningApps = integerValue(source);
      im.record(source, 'used', 'applied', target('maxRunningApps'));
      break;
    case 'maxAMShare':
      if (place.isParent) {
        im.record(source, 'ignored', 'on a parent queue: Hadoop 2.7 ignores it, 3.x refuses the file');
        break;
      }
      // Hadoop caps maxAMShare at 1.
      draft.maxAmShare = Math.min(numberValue(source), 1);
      im.record(source, 'used', 'applied', target('maxAmShare'));
      break;
    case 'schedulingPolicy':
    case 'schedulingMode':
      draft.schedulingPolicy = im.policyOf(child, place.label(child.name));
      im.record(source, 'used', 'applied', target('schedulingPolicy'));
      break;
    case 'maxChildResources':
      im.record(source, 'unsupported', 'queues created at submission are not capped: the replay gives them no maximum');
      break;
    case 'maxContainerAllocation':
      im.record(source, 'unsupported', 'per-queue maximum allocations are not modelled: the scheduler-wide maximum applies');
      break;
    case 'reservation':
      im.record(source, ...whileSwitchedOn(im.context, 'reservationSystem'));
      break;
    default:
      otherQueueElement(im, child.name, source);
  }
}

/** Preemption and ACL elements, on any queue; anything else is unknown. */
function otherQueueElement(im: FairImport, name: string, source: FindingSource): void {
  if (PREEMPTION_ELEMENTS.has(name)) im.record(source, ...whileSwitchedOn(im.context, 'fairPreemption'));
  else if (ACL_ELEMENTS.has(name)) im.record(source, 'ignored', REASONS.acl);
  else im.record(source, 'unknown', 'not a queue element rmreplay knows; Hadoop skips it');
}

/** root's own settings (a <queue name="root">): most have no field in the model. */
export function rootSettings(im: FairImport, element: XmlElement): void {
  const last = lastOf(element.children);
  for (const child of element.children) {
    if (QUEUE_TAGS.has(child.name)) continue;
    const source = im.sourceOf(child, `${element.name}[root]/${child.name}`);
    if (im.overridden(child, last, source)) continue;
    switch (child.name) {
      case 'schedulingPolicy':
      case 'schedulingMode': {
        const policy: QueuePolicyName = im.policyOf(child, source.property);
        if (policy === 'fifo') throw invalidValue(source, 'cannot be fifo on root (Hadoop allows fifo on leaf queues only)');
        im.fair.rootSchedulingPolicy = policy;
        im.record(source, 'used', 'applied', 'scheduler.fair.rootSchedulingPolicy');
        break;
      }
      case 'weight':
      case 'minResources':
        im.record(source, 'ignored', 'root has no siblings to share with');
        break;
      case 'maxAMShare':
        im.record(source, 'ignored', 'root is a parent queue: Hadoop 2.7 ignores it, 3.x refuses the file');
        break;
      case 'maxRunningApps':
        im.rootMaxRunningApps = integerValue(source);
        im.record(source, 'used', 'applied', 'scheduler.rootMaxRunningApps');
        break;
      case 'maxResources':
      case 'maxChildResources':
      case 'maxContainerAllocation':
        im.record(source, 'unsupported', 'limits on root are not modelled: root may use the whole cluster');
        break;
      default:
        otherQueueElement(im, child.name, source);
    }
  }
}

/**
 * Set a maxResources (or the file default) on a queue whose ancestors' maximum shares
 * multiply to `parentFraction` of the cluster; returns how the setting was judged.
 */
function applyMax(im: FairImport, draft: QueueDraft, resource: FairResource, parentFraction: number, where: string): { kind: FindingKind; reason: string } {
  const judged = judgeMax(resource, parentFraction);
  if (judged.maxResources !== null) draft.maxResources = judged.maxResources;
  if (judged.maximumCapacityPercent !== null) draft.maximumCapacityPercent = judged.maximumCapacityPercent;
  if (judged.capped) {
    im.notes.push(`${where} ${draft.path}: ${judged.clusterPercent}% of the cluster is more than its parent's maximum; capped at the parent's`);
  }
  return judged;
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
export function judgeMax(resource: FairResource, parentFraction: number): JudgedMax {
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
