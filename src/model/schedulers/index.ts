// Every scheduler kind's own settings, keyed by the cluster's scheduler type: the one list a
// new kind joins (with its line in policies/scheduling/registry.ts for its behaviour). A
// cluster carries every kind's block, whichever kind runs it, so that a switch of scheduler
// can carry them and a cluster's JSON (and so a stored run's description) keeps one shape.

import { CAPACITY_SETTINGS } from './capacity.js';
import type { CapacitySchedulerSettings } from './capacity.js';
import { FAIR_SETTINGS } from './fair.js';
import type { FairSchedulerSettings } from './fair.js';
import type { SchedulerSettingsKind } from './kind.js';

export const SCHEDULER_SETTINGS = { capacity: CAPACITY_SETTINGS, fair: FAIR_SETTINGS };

/** Which RM scheduler's rules apply (normalization step, admission, allocation order). */
export type SchedulerType = keyof typeof SCHEDULER_SETTINGS;

export const SCHEDULER_TYPES = Object.keys(SCHEDULER_SETTINGS) as SchedulerType[];

/** Each kind's block of settings, under its scheduler type, as parsed. */
export type SchedulerKindSettings = { readonly [T in SchedulerType]: (typeof SCHEDULER_SETTINGS)[T] extends SchedulerSettingsKind<infer S> ? S : never };

/** Each kind's schema of its block, under its scheduler type: the cluster schema's fields. */
export const SCHEDULER_SETTINGS_SCHEMAS = Object.fromEntries(SCHEDULER_TYPES.map((type) => [type, SCHEDULER_SETTINGS[type].schema])) as {
  readonly [T in SchedulerType]: (typeof SCHEDULER_SETTINGS)[T]['schema'];
};

/** A kind's own rules, read on its own block (the generic seam's one cast). */
function kindOf<T extends SchedulerType>(type: T): SchedulerSettingsKind<SchedulerKindSettings[T]> {
  return SCHEDULER_SETTINGS[type] as unknown as SchedulerSettingsKind<SchedulerKindSettings[T]>;
}

export function settingsKind(type: SchedulerType): SchedulerSettingsKind<unknown> {
  return SCHEDULER_SETTINGS[type];
}

/** The AM limit of a queue that sets none, under the kind `type`. */
export function defaultAmShare(blocks: SchedulerKindSettings, type: SchedulerType): number {
  return kindOf(type).defaultAmShare(blocks[type]);
}

/** Every kind's block with its default AM limit set to `share` (see SchedulerSettingsKind.withAmShare). */
export function withAmShare(blocks: SchedulerKindSettings, share: number): SchedulerKindSettings {
  const rewritten: Record<string, unknown> = {};
  for (const type of SCHEDULER_TYPES) rewritten[type] = kindOf(type).withAmShare(blocks[type], share);
  return rewritten as unknown as SchedulerKindSettings;
}

export type { CapacitySchedulerSettings, FairSchedulerSettings, SchedulerSettingsKind };
