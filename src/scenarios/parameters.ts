// Typed reads of a scenario's resolved parameters (validated by resolveParameters before a
// scenario's build sees them, so a wrong type here is a programming error), and the parameters
// several scenarios take, defined once so that they read the same in every help text.

import type { NumberParameter, ParameterValue } from './types.js';

/** Task durations scaled by a seeded uniform factor in [1 - jitter, 1 + jitter) (draws.ts jitterer). */
export const JITTER_PARAMETER: NumberParameter = {
  kind: 'number',
  name: 'jitter',
  description: 'task durations vary uniformly by +/- this fraction',
  defaultValue: 0.1,
  min: 0,
  max: 0.9,
  integer: false,
};

/** The AM's start-up, for the AutoAdmin scenarios where it decides whether AMs fill the cluster. */
export const AM_STARTUP_PARAMETER: NumberParameter = {
  kind: 'number',
  name: 'amStartupS',
  description: 'from an AM container\'s allocation to its first task requests (s)',
  defaultValue: 10,
  min: 0,
  max: 600,
  integer: false,
};

/** The mean of Poisson arrivals' exponential gaps (draws.ts exponentialGapMs). */
export function meanGapParameter(defaultS: number): NumberParameter {
  return { kind: 'number', name: 'meanGapS', description: 'mean gap between submissions (s)', defaultValue: defaultS, min: 0, max: 86_400, integer: false };
}

export function numberParameter(parameters: Readonly<Record<string, ParameterValue>>, name: string): number {
  const value = parameters[name];
  if (typeof value !== 'number') throw new TypeError(`scenario parameter ${name} is not a number`);
  return value;
}

export function choiceParameter(parameters: Readonly<Record<string, ParameterValue>>, name: string): string {
  const value = parameters[name];
  if (typeof value !== 'string') throw new TypeError(`scenario parameter ${name} is not a choice`);
  return value;
}
