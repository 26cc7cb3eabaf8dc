// What a scheduler kind's own settings bring to the cluster model: the block of settings that
// are not per queue (its schema and defaults), its AM limit and how an admission policy rewrites
// it, and the checks it makes when it loads a queue tree. The kinds are listed in index.ts.

import type { z } from 'zod';
import type { QueueConfig } from '../queues.js';

export interface SchedulerSettingsKind<Settings> {
  /** The schema of its block in a cluster file, every field defaulted (so `{}` parses). */
  readonly schema: z.ZodType<Settings, unknown>;
  /** The AM-limit value (maximum-am-resource-percent, maxAMShare) that means "no limit". */
  readonly unlimitedAmShare: number;
  /** The AM limit of a queue that sets none. */
  defaultAmShare(settings: Settings): number;
  /**
   * Its block with the default AM limit set to `share` by an admission policy: a fraction in
   * (0, 1], or -1 for another kind's "no limit" (every kind's block is rewritten, not only the
   * running one's, so a later switch carries the same limit).
   */
  withAmShare(settings: Settings, share: number): Settings;
  /** What it refuses in one queue it loads (a problem's text, naming `path`), or null. */
  queueProblem(queue: QueueConfig, path: string): string | null;
  /** What it refuses in the children of `parentPath` whose capacities add up to `specifiedPercent`, or null. */
  childrenProblem(children: readonly QueueConfig[], specifiedPercent: number, parentPath: string): string | null;
}
