// What the parts of the capacity-scheduler.xml import share while the file is read: the merged
// properties and the queue tree found in them (read only), the one property being judged, and
// the scheduler-wide values gathered so far.

import type { CapacitySchedulerSettings } from '../../model/cluster.js';
import type { ResourceCalculatorName } from '../../model/resources.js';
import type { FindingKind } from './findings.js';
import type { ImportContext, propertySource } from './known-properties.js';
import type { QueueDraft } from './queue-draft.js';
import type { HadoopProperty } from './xml.js';

/** The file as read: its merged properties, its queue tree and the switches other settings depend on. */
export interface CapacityFile {
  readonly context: ImportContext;
  /** yarn.scheduler.capacity.<rest>, as merged from yarn-site.xml and the file. */
  readonly get: (rest: string) => HadoopProperty | undefined;
  /** Every queue below root, by path. */
  readonly drafts: ReadonlyMap<string, QueueDraft>;
  readonly asyncOn: boolean;
  readonly multiNodeOn: boolean;
  readonly mappingsOn: boolean;
  readonly workflowOn: boolean;
}

/** One property being judged: the part after yarn.scheduler.capacity., and how to record the verdict. */
export interface JudgedProperty {
  readonly property: HadoopProperty;
  readonly source: ReturnType<typeof propertySource>;
  readonly rest: string;
  readonly add: (kind: FindingKind, reason: string, target?: string | null) => void;
}

/** What the properties set beyond the queues' own settings, filled in as they are judged. */
export interface CapacityGathered {
  resourceCalculator: ResourceCalculatorName | null;
  readonly capacity: { -readonly [K in keyof CapacitySchedulerSettings]?: CapacitySchedulerSettings[K] };
  /** yarn.scheduler.capacity.max-parallel-apps: for root and every queue that sets none. */
  defaultMaxParallelApps: number | null;
  rootMaxParallelApps: number | null;
  /** Queues whose file sets a capacity (one without gets 0%). */
  readonly capacityGiven: Set<QueueDraft>;
}
