// The FairScheduler allocation file (fair-scheduler.xml): nested queues (and legacy pools) with
// their shares, weights, limits and policies, the file-wide defaults and the placement
// policy, each element judged. This file reads the top-level elements and the file-wide
// defaults; fair-queue-elements.ts the queues, fair-placement.ts the placement policy.

import type { FairSchedulerSettings } from '../../model/cluster.js';
import type { QueueConfig, QueuePolicyName } from '../../model/queues.js';
import { FairImport, lastOf, PREEMPTION_ELEMENTS, QUEUE_TAGS } from './fair-import.js';
import type { FairQueueDefaults } from './fair-import.js';
import { judgePlacementPolicy } from './fair-placement.js';
import { buildQueue, judgeMax, rootSettings } from './fair-queue-elements.js';
import type { ConfigFinding, FindingCount, FindingSource } from './findings.js';
import { whileSwitchedOn } from './known-properties.js';
import type { ImportContext } from './known-properties.js';
import { freezeQueueDraft } from './queue-draft.js';
import type { QueueDraft } from './queue-draft.js';
import { integerValue, invalidValue, numberValue } from './values.js';
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

/** Judge every element of the allocation file and build the queue tree. */
export function importFairScheduler(allocations: XmlElement, file: string, options: FairSchedulerOptions): FairSchedulerImport {
  const im = new FairImport(file, options.context);
  const top = allocations.children;
  const topLast = lastOf(top);
  const defaults = queueDefaults(im, topLast);
  const drafts: QueueDraft[] = [];
  const rootElements = top.filter((e) => QUEUE_TAGS.has(e.name));
  const rootElement = rootElements.find((e) => (e.attributes.name ?? '').trim().toLowerCase() === 'root');
  if (rootElement !== undefined && rootElements.length > 1) {
    throw new HadoopConfigError(`${file}:${rootElement.line}: with a <${rootElement.name} name="root">, every other queue must be inside it`);
  }
  const lastUserLimit = lastUserLimits(top);

  for (const element of top) {
    const source = im.sourceOf(element, element.name);
    if (QUEUE_TAGS.has(element.name)) {
      if (element === rootElement) {
        rootSettings(im, element);
        for (const child of element.children.filter((c) => QUEUE_TAGS.has(c.name))) drafts.push(buildQueue(im, defaults, child, 'root', 1));
      } else drafts.push(buildQueue(im, defaults, element, 'root', 1));
      continue;
    }
    if (element.name === 'user') {
      userElement(im, element, lastUserLimit);
      continue;
    }
    if (im.overridden(element, topLast, source)) continue;
    fileWideElement(im, element, source, defaults);
  }

  judgeMaxResourcesDefault(im, defaults);
  checkPolicies(im, defaults.policy, im.fair.rootSchedulingPolicy ?? defaults.policy, 'root', drafts);

  im.findings.findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return {
    queues: drafts.map(freezeQueueDraft),
    rootMaxRunningApps: im.rootMaxRunningApps ?? defaults.maxApps,
    fair: im.fair,
    findings: im.findings.findings,
    findingCounts: im.findings.findingCounts,
    notes: im.notes,
  };
}

/** A scheduling policy element's two names: the later one is the one Hadoop keeps. */
function alias(topLast: ReadonlyMap<string, XmlElement>, name: string, legacy: string): XmlElement | undefined {
  const a = topLast.get(name);
  const b = topLast.get(legacy);
  if (a === undefined || b === undefined) return a ?? b;
  return a.line >= b.line ? a : b;
}

/** The file-wide defaults first: they apply to queues wherever they appear in the file. */
function queueDefaults(im: FairImport, topLast: ReadonlyMap<string, XmlElement>): FairQueueDefaults & { readonly policyElement: XmlElement | undefined } {
  const policyElement = alias(topLast, 'defaultQueueSchedulingPolicy', 'defaultQueueSchedulingMode');
  let policy: QueuePolicyName = 'fair';
  if (policyElement !== undefined) {
    policy = im.policyOf(policyElement, policyElement.name);
    if (policy === 'fifo') {
      throw invalidValue(im.sourceOf(policyElement, policyElement.name), 'cannot be fifo (Hadoop refuses it: parents cannot be fifo)');
    }
  }
  const maxAppsElement = topLast.get('queueMaxAppsDefault');
  const maxApps = maxAppsElement ? integerValue(im.sourceOf(maxAppsElement, 'queueMaxAppsDefault')) : null;
  const maxResourcesElement = topLast.get('queueMaxResourcesDefault');
  const maxResources = maxResourcesElement ? im.resourceOf(maxResourcesElement, 'queueMaxResourcesDefault') : null;
  return { policy, policyElement, maxApps, maxResources, maxResourcesElement };
}

/** A user's limit may be given more than once, in one <user> element or several: Hadoop keeps the last. */
function lastUserLimits(top: readonly XmlElement[]): Map<string, XmlElement> {
  const lastUserLimit = new Map<string, XmlElement>();
  for (const e of top) {
    if (e.name !== 'user') continue;
    for (const c of e.children) if (c.name === 'maxRunningApps') lastUserLimit.set(e.attributes.name ?? '', c);
  }
  return lastUserLimit;
}

/** A <user> element: its maxRunningApps, the last one given for that user. */
function userElement(im: FairImport, element: XmlElement, lastUserLimit: ReadonlyMap<string, XmlElement>): void {
  const user = element.attributes.name ?? '';
  if (element.children.length === 0) im.record(im.sourceOf(element, `user[${user}]`), 'ignored', 'a user with no settings');
  for (const child of element.children) {
    const childSource = im.sourceOf(child, `user[${user}]/${child.name}`);
    if (child.name === 'maxRunningApps') {
      const winner = lastUserLimit.get(user)!;
      if (user === '') im.record(childSource, 'ignored', 'a user element without a name matches no user');
      else if (winner !== child) im.record(childSource, 'ignored', `set again for ${user} at line ${winner.line}; the last one wins`);
      else {
        im.fair.userMaxApps = { ...im.fair.userMaxApps, [user]: integerValue(childSource) };
        im.record(childSource, 'used', 'applied', `scheduler.fair.userMaxApps.${user}`);
      }
    } else im.record(childSource, 'unknown', 'not a user element rmreplay knows; Hadoop skips it');
  }
}

/** A top-level element other than a queue or a user: a file-wide default or setting. */
function fileWideElement(im: FairImport, element: XmlElement, source: FindingSource, defaults: ReturnType<typeof queueDefaults>): void {
  switch (element.name) {
    case 'defaultQueueSchedulingPolicy':
    case 'defaultQueueSchedulingMode':
      if (element !== defaults.policyElement) {
        im.record(source, 'ignored', `${defaults.policyElement!.name} is set too, later in the file, and wins`);
        break;
      }
      im.fair.defaultQueueSchedulingPolicy = defaults.policy;
      im.record(source, 'used', 'applied', 'scheduler.fair.defaultQueueSchedulingPolicy');
      break;
    case 'queueMaxAMShareDefault':
      im.fair.queueMaxAmShareDefault = Math.min(numberValue(source), 1);
      im.record(source, 'used', 'applied', 'scheduler.fair.queueMaxAmShareDefault');
      break;
    case 'queueMaxAppsDefault':
      im.fair.queueMaxAppsDefault = defaults.maxApps;
      im.record(
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
      im.fair.userMaxAppsDefault = integerValue(source);
      im.record(source, 'used', 'applied', 'scheduler.fair.userMaxAppsDefault');
      break;
    case 'queuePlacementPolicy':
      judgePlacementPolicy(im, element, source);
      break;
    case 'reservation-agent':
    case 'reservation-planner':
    case 'reservation-policy':
      im.record(source, ...whileSwitchedOn(im.context, 'reservationSystem'));
      break;
    default:
      if (PREEMPTION_ELEMENTS.has(element.name)) im.record(source, ...whileSwitchedOn(im.context, 'fairPreemption'));
      else im.record(source, 'unknown', 'not an allocation file element rmreplay knows; Hadoop logs "Bad element" and skips it');
  }
}

/** queueMaxResourcesDefault, judged once the queues it applied to are known. */
function judgeMaxResourcesDefault(im: FairImport, defaults: FairQueueDefaults): void {
  if (defaults.maxResourcesElement === undefined || defaults.maxResources === null) return;
  const { kind, reason, maxResources } = judgeMax(defaults.maxResources, 1);
  const targets = im.maxResourcesDefaultTargets.length > 0 ? im.maxResourcesDefaultTargets.join(', ') : 'no queue (every queue sets its own)';
  im.record(
    im.sourceOf(defaults.maxResourcesElement, 'queueMaxResourcesDefault'),
    kind,
    `${reason.replace(/^applied/, `applied to ${targets}`)}; queues created at submission (root.<user>) do not get it`,
    `scheduler.queues[*].${maxResources ? 'maxResources' : 'maximumCapacityPercent'}`,
  );
}

/** A drf queue under a fair one: Hadoop 3.x refuses it, 2.7 accepts it (a note). */
function checkPolicies(im: FairImport, defaultPolicy: QueuePolicyName, parentPolicy: QueuePolicyName, parentPath: string, children: readonly QueueDraft[]): void {
  for (const child of children) {
    const policy = child.schedulingPolicy ?? defaultPolicy;
    if (parentPolicy === 'fair' && policy === 'drf') {
      im.notes.push(`${im.file}: ${child.path} uses drf under ${parentPath}, which uses fair: Hadoop 3.x refuses this, 2.7 accepts it`);
    }
    checkPolicies(im, defaultPolicy, policy, child.path, child.children);
  }
}
