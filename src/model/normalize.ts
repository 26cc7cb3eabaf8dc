// Container-request validation and normalization exactly as the YARN RM does it
// (docs/model.md 1.2 and 1.3).

import { roundUpTo } from './resources.js';
import type { Resources } from './resources.js';
import type { SchedulerSettings } from './cluster.js';

export type NormalizeResult =
  | { readonly ok: true; readonly granted: Resources }
  | { readonly ok: false; readonly reason: string };

/** What is asked for: an AM container (at submission) or a task container (on an AM heartbeat). */
export type RequestKind = 'am' | 'task';

/**
 * How a scheduler normalizes requests, which differs between the two and, for AM asks, between
 * releases (docs/model.md 1.2): the step each kind of ask is rounded up to, and whether it is
 * normalized on memory alone (its granted container then has 1 vcore) always, never, or as the
 * configured calculator says.
 */
export interface NormalizationRule {
  readonly taskStep: 'minimum' | 'increment';
  readonly taskMemoryOnly: boolean | 'calculator';
  readonly amStep: 'minimum' | 'increment';
  readonly amMemoryOnly: boolean | 'calculator';
}

/**
 * Validate the raw request, then normalize it.
 *
 * Validation uses the raw ask and checks memory and vcores whatever the calculator:
 * a negative value or one above the maximum allocation is refused, as
 * SchedulerUtils.validateResourceRequest does.
 *
 * Normalization, per resource: max(ask, minimum), rounded up to a multiple of the step,
 * clamped to the maximum, as the scheduler's rule says (each scheduler's rule is in its entry
 * of policies/scheduling/registry.ts). Normalized on memory alone, the granted container has
 * exactly 1 vcore, because DefaultResourceCalculator builds the result from memory alone.
 */
export function normalizeRequest(
  ask: Resources,
  settings: SchedulerSettings,
  rule: NormalizationRule,
  kind: RequestKind = 'task',
): NormalizeResult {
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
  const step = (kind === 'task' ? rule.taskStep : rule.amStep) === 'increment' ? settings.incrementAllocation : min;
  const memoryOnlyRule = kind === 'task' ? rule.taskMemoryOnly : rule.amMemoryOnly;
  const memoryOnly = memoryOnlyRule === 'calculator' ? settings.resourceCalculator === 'default' : memoryOnlyRule;
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
