// What the parts of the allocation-file import share while the file is read: where findings
// go, the settings and notes gathered so far, the file-wide defaults queues inherit, and the
// readers of an element (its source, policy, resource) and of repeated elements (the last wins).

import type { FairSchedulerSettings } from '../../model/cluster.js';
import type { QueuePolicyName } from '../../model/queues.js';
import { finding, FindingList } from './findings.js';
import type { FindingKind, FindingSource } from './findings.js';
import type { ImportContext } from './known-properties.js';
import { invalidValue, parseFairResource } from './values.js';
import type { FairResource } from './values.js';
import type { XmlElement } from './xml.js';

const POLICY_CLASSES: Readonly<Record<string, QueuePolicyName>> = {
  FairSharePolicy: 'fair',
  FifoPolicy: 'fifo',
  DominantResourceFairnessPolicy: 'drf',
};

export const QUEUE_TAGS = new Set(['queue', 'pool']);

export const PREEMPTION_ELEMENTS = new Set([
  'minSharePreemptionTimeout',
  'fairSharePreemptionTimeout',
  'fairSharePreemptionThreshold',
  'allowPreemptionFrom',
  'defaultMinSharePreemptionTimeout',
  'defaultFairSharePreemptionTimeout',
  'defaultFairSharePreemptionThreshold',
]);

export const ACL_ELEMENTS = new Set([
  'aclSubmitApps',
  'aclAdministerApps',
  'aclAdministerReservations',
  'aclListReservations',
  'aclSubmitReservations',
]);

/** The file-wide defaults that apply to queues wherever they appear in the file. */
export interface FairQueueDefaults {
  readonly policy: QueuePolicyName;
  readonly maxApps: number | null;
  readonly maxResources: FairResource | null;
  readonly maxResourcesElement: XmlElement | undefined;
}

export class FairImport {
  readonly findings = new FindingList();
  readonly notes: string[] = [];
  readonly fair: { -readonly [K in keyof FairSchedulerSettings]?: FairSchedulerSettings[K] } = {};
  rootMaxRunningApps: number | null = null;
  /** Queues that took queueMaxResourcesDefault, by path. */
  readonly maxResourcesDefaultTargets: string[] = [];

  constructor(
    readonly file: string,
    readonly context: ImportContext,
  ) {}

  sourceOf(element: XmlElement, property: string, value = element.text): FindingSource & { unresolved: null } {
    return { file: this.file, line: element.line, property, value, unresolved: null };
  }

  record(source: FindingSource, kind: FindingKind, reason: string, target: string | null = null): void {
    this.findings.push(finding(source, kind, reason, target));
  }

  policyOf(element: XmlElement, property: string): QueuePolicyName {
    const text = element.text;
    const lower = text.toLowerCase();
    if (lower === 'fair' || lower === 'fifo' || lower === 'drf') return lower;
    const byClass = POLICY_CLASSES[text.slice(text.lastIndexOf('.') + 1)];
    if (byClass !== undefined) return byClass;
    throw invalidValue(this.sourceOf(element, property), 'is not a scheduling policy rmreplay models: fair, fifo or drf');
  }

  resourceOf(element: XmlElement, property: string): FairResource {
    try {
      return parseFairResource(element.text);
    } catch (error) {
      throw invalidValue(this.sourceOf(element, property), (error as Error).message);
    }
  }

  /** An element set again later among its siblings (`last`, from lastOf) is recorded as ignored. */
  overridden(element: XmlElement, last: ReadonlyMap<string, XmlElement>, source: FindingSource): boolean {
    const winner = last.get(element.name)!;
    if (winner === element) return false;
    this.record(source, 'ignored', `set again at line ${winner.line}; the last one wins`);
    return true;
  }
}

/** Elements Hadoop keeps one of, by name: the last wins. */
export function lastOf(elements: readonly XmlElement[]): Map<string, XmlElement> {
  const last = new Map<string, XmlElement>();
  for (const e of elements) if (!QUEUE_TAGS.has(e.name) && e.name !== 'user') last.set(e.name, e);
  return last;
}
