// Typed reads of a scenario's resolved parameters (validated by resolveParameters before a
// scenario's build sees them, so a wrong type here is a programming error).

import type { ParameterValue } from './types.js';

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
