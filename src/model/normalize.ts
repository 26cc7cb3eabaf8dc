// Container-request validation and normalization exactly as the YARN RM does it
// (yarn-semantics.md 1.2 and 1.3).

import { roundUpTo } from './resources.js';
import type { Resources } from './resources.js';
import type { SchedulerSettings } from './cluster.js';

export type NormalizeResult =
  | { readonly ok: true; readonly granted: Resources }
  | { readonly ok: false; readonly reason: string };

/** What is asked for: an AM container (at submission) or a task container (on an AM heartbeat). */
export type RequestKind = 'am' | 'task';

/**
 * Validate the raw request, then normalize it.
 *
 * Validation uses the raw ask and checks memory and vcores whatever the calculator:
 * a negative value or one above the maximum allocation is refused, as
 * SchedulerUtils.validateResourceRequest does.
 *
 * Normalization, per resource: max(ask, minimum), rounded up to a multiple of the step,
 * clamped to the maximum. The step is the minimum allocation under the CapacityScheduler and
 * the increment allocation under the FairScheduler. With the `default` (memory-only)
 * calculator only memory is normalized and the granted container has exactly 1 vcore,
 * because DefaultResourceCalculator builds the result from memory alone.
 *
 * The FairScheduler normalizes task asks with the dominant calculator and its increment; an
 * AM ask is normalized at submission by the RM itself, which in Hadoop 2.7 uses the
 * scheduler's DefaultResourceCalculator and the minimum (so a FairScheduler AM gets 1 vcore).
 */
export function normalizeRequest(ask: Resources, settings: SchedulerSettings, kind: RequestKind = 'task'): NormalizeResult {
  const { minimumAllocation: min, maximumAllocation: max } = settings;
  if (ask.memoryMb < 0 || ask.vcores < 0) {
    return { ok: false, reason: `negative resource request ${describe(ask)}` };
  }
  if (ask.memoryMb > max.memoryMb) {
    return {
      ok: false,
      reason: `request of ${ask.memoryMb} MB is above the maximum allocation of ${max.memoryMb} MB`,
    };
  }
  if (ask.vcores > max.vcores) {
    return {
      ok: false,
      reason: `request of ${ask.vcores} vcores is above the maximum allocation of ${max.vcores} vcores`,
    };
  }
  const fairTask = settings.type === 'fair' && kind === 'task';
  const step = fairTask ? settings.incrementAllocation : min;
  const memoryOnly = settings.type === 'fair' ? !fairTask : settings.resourceCalculator === 'default';
  const memoryMb = normalizeValue(ask.memoryMb, min.memoryMb, step.memoryMb, max.memoryMb);
  if (memoryOnly) {
    return { ok: true, granted: { memoryMb, vcores: memoryMb > 0 ? 1 : 0 } };
  }
  const vcores = normalizeValue(ask.vcores, min.vcores, step.vcores, max.vcores);
  return { ok: true, granted: { memoryMb, vcores } };
}

function normalizeValue(ask: number, minimum: number, step: number, maximum: number): number {
  return Math.min(roundUpTo(Math.max(ask, minimum), step), maximum);
}

function describe(r: Resources): string {
  return `${r.memoryMb} MB / ${r.vcores} vcores`;
}
