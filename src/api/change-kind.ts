// What kind of change a what-if is: the description of a log replayed as recorded set against the
// description of the same log replayed under other settings. The kinds are those a validation
// (two logs of one workload, the second recorded under the change) can vouch for, so a what-if
// is told how well its kind has been predicted. Read from the two run descriptions, not from the
// options typed: a file that repeats the log's own settings is no change, and a
// capacity-scheduler.xml that only moves maximum-am-resource-percent is the AM limit, as
// `-p am-share:P` is.

import type { Cluster, SchedulerSettings, SchedulerType } from '../model/cluster.js';
import { queueConfig } from '../model/queues.js';
import type { QueueConfig } from '../model/queues.js';
import { canonicalJson } from '../model/run-spec.js';
import type { RunSpec } from '../model/run-spec.js';
import { SCHEDULER_TYPES } from '../model/schedulers/index.js';
import { childCapacityPercents } from '../policies/scheduling/capacity-queues.js';

/** In the order they are listed; a what-if may be of several kinds at once. */
export const CHANGE_KINDS = ['am-limit', 'nodes', 'queues', 'scheduler-switch', 'admission'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const CHANGE_KIND_TITLES: Readonly<Record<ChangeKind, string>> = {
  'am-limit': 'AM limit',
  nodes: 'node count / hardware',
  queues: 'queue settings',
  'scheduler-switch': 'scheduler switch',
  admission: 'admission policy',
};

/** The admission policy that sets every queue's AM limit (docs/model.md 11.5); other policies are admission control. */
const AM_LIMIT_POLICY = 'am-share';
const AS_CONFIGURED = 'as-configured';

/**
 * The kinds of change from `recorded` (the log as recorded: its cluster, the as-configured
 * policy) to `whatIf`; none when they replay the same settings. Seeds, sample intervals and the
 * like are not settings of the cluster and are not compared.
 *
 * - scheduler switch: the scheduler type differs; the switched scheduler's queues and
 *   allocation settings are part of the switch.
 * - AM limit: `am-share:P`, or scheduler settings that differ only in AM limits
 *   (maximum-am-resource-percent, maxAMShare, queueMaxAMShareDefault).
 * - queue settings: any other difference in the scheduler's settings on the same scheduler
 *   (queues and their limits and policies, allocation sizes, heartbeat interval).
 * - node count / hardware: the nodes (count, size, speed), whether the log's node joins and
 *   departures are replayed, or anything else a cluster file brings (MapReduce defaults, task model).
 * - admission policy: any other policy than as-configured and am-share.
 */
export function changeKinds(recorded: RunSpec, whatIf: RunSpec): ChangeKind[] {
  const kinds = new Set<ChangeKind>();
  const policy = policyName(whatIf.admission.spec);
  if (policy !== policyName(recorded.admission.spec)) {
    if (policy === AM_LIMIT_POLICY) kinds.add('am-limit');
    else if (policy !== AS_CONFIGURED) kinds.add('admission');
  }
  const before = effective(recorded.cluster.scheduler);
  const after = effective(whatIf.cluster.scheduler);
  if (before.type !== after.type) kinds.add('scheduler-switch');
  else if (!same(before, after)) kinds.add(same(withoutAmLimits(before), withoutAmLimits(after)) ? 'am-limit' : 'queues');
  if (!same(outsideScheduler(recorded.cluster), outsideScheduler(whatIf.cluster)) || !same(recorded.nodeTimeline, whatIf.nodeTimeline)) {
    kinds.add('nodes');
  }
  return CHANGE_KINDS.filter((kind) => kinds.has(kind));
}

/** Kinds as one label: "AM limit", "node count / hardware + admission policy"; "no change" for none. */
export function changeKindsTitle(kinds: readonly ChangeKind[]): string {
  return kinds.length === 0 ? 'no change' : kinds.map((kind) => CHANGE_KIND_TITLES[kind]).join(' + ');
}

/** A key for grouping what-ifs and validations of the same kinds. */
export function changeKindsKey(kinds: readonly ChangeKind[]): string {
  return kinds.join('+');
}

/** A policy's name: its canonical spec up to the first colon (`am-share:0.5` -> `am-share`). */
function policyName(spec: string): string {
  const colon = spec.indexOf(':');
  return colon < 0 ? spec : spec.slice(0, colon);
}

/** The cluster apart from its scheduler settings and its name (which follows the other changes). */
function outsideScheduler(cluster: Cluster): object {
  const { scheduler: _scheduler, name: _name, description: _description, ...rest } = cluster;
  return rest;
}

/**
 * The settings with what each listed queue inherits written into it, so that two ways of writing
 * the same limits compare equal (a log prints a queue's AM limit and application limit; a
 * capacity-scheduler.xml may leave them to the global defaults); by the kind that runs them.
 */
function effective(settings: SchedulerSettings): EffectiveSettings {
  return KIND_COMPARISONS[settings.type].effective(settings);
}

/** Scheduler settings as effective() writes them: a CapacityScheduler's globals without the two its queues inherit. */
type EffectiveSettings = Omit<SchedulerSettings, 'capacity'> & { readonly capacity: object };

function withoutAmLimits(settings: EffectiveSettings): object {
  // Every kind's block, not only the running one's: each holds its own default AM limit.
  const blocks = Object.fromEntries(SCHEDULER_TYPES.map((type) => [type, KIND_COMPARISONS[type].withoutAmLimit(settings[type])]));
  return { ...settings, queues: settings.queues.map(queueWithoutAmLimit), ...blocks };
}

/** How each kind's settings are compared: what its queues inherit, and where its block keeps an AM limit. */
interface KindComparison {
  /** The settings, when this kind runs them, with what each listed queue inherits written into it. */
  effective(settings: SchedulerSettings): EffectiveSettings;
  /** Its block (as effective() leaves it) with its scheduler-wide AM limit taken out. */
  withoutAmLimit(block: object): object;
}

/**
 * A new kind adds its entry (the Record's type makes a missing one a compile error, rather than
 * a fall-through to another kind's rules).
 */
const KIND_COMPARISONS: Readonly<Record<SchedulerType, KindComparison>> = {
  // capacity-queues.ts makeQueue: a queue's capacity, maximum capacity, AM limit (else the global
  // maximum-am-resource-percent) and maximum applications (else the global maximum-applications
  // x its absolute capacity); the globals then say nothing more. The stock single queue when
  // none is listed.
  capacity: {
    effective: (settings) => {
      const global = settings.capacity;
      const resolve = (configs: readonly QueueConfig[], parentAbsCapacity: number): QueueConfig[] => {
        const percents = childCapacityPercents(configs);
        return configs.map((queue, i) => {
          const absCapacity = parentAbsCapacity * (percents[i]! / 100);
          return {
            ...queue,
            capacityPercent: percents[i]!,
            maximumCapacityPercent: queue.maximumCapacityPercent ?? 100,
            maxAmShare: queue.maxAmShare ?? global.maximumAmResourcePercent,
            maximumApplications: queue.maximumApplications ?? Math.trunc(global.maximumApplications * absCapacity),
            queues: resolve(queue.queues, absCapacity),
          };
        });
      };
      const listed = settings.queues.length > 0 ? settings.queues : [queueConfig('default', { capacityPercent: 100, maximumCapacityPercent: 100 })];
      const { maximumAmResourcePercent: _share, maximumApplications: _applications, ...otherGlobals } = global;
      return { ...settings, queues: resolve(listed, 1), capacity: otherGlobals };
    },
    withoutAmLimit: (block) => ({ ...block, maximumAmResourcePercent: null }),
  },
  // A queue's maxAMShare, else queueMaxAMShareDefault (which still applies to queues made at
  // submission, so it stays).
  fair: {
    effective: (settings) => {
      const withDefault = (queue: QueueConfig): QueueConfig => ({
        ...queue,
        maxAmShare: queue.maxAmShare ?? settings.fair.queueMaxAmShareDefault,
        queues: queue.queues.map(withDefault),
      });
      return { ...settings, queues: settings.queues.map(withDefault) };
    },
    withoutAmLimit: (block) => ({ ...block, queueMaxAmShareDefault: null }),
  },
};

function queueWithoutAmLimit(queue: QueueConfig): object {
  return { ...queue, maxAmShare: null, queues: queue.queues.map(queueWithoutAmLimit) };
}

/** Equal as plain data (descriptions are JSON: key order aside, the same text). */
function same(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
