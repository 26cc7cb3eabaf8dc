// The built-in scenarios, looked up by name; an unknown name or parameter lists the valid ones.

import { UserError } from '../model/errors.js';
import { terasortBatch } from './terasort-batch.js';
import type { Scenario } from './types.js';

export type { Scenario, ScenarioBuild, ScenarioParameter } from './types.js';

export const SCENARIOS: readonly Scenario[] = [terasortBatch];

/** A user error naming a scenario or a parameter; the message lists the valid ones. */
export class ScenarioError extends UserError {
  override readonly name: string = 'ScenarioError';
}

export function findScenario(name: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) {
    throw new ScenarioError(
      `unknown scenario '${name}'; built-in scenarios are:\n${SCENARIOS.map((s) => `  ${s.name.padEnd(16)} ${s.summary}`).join('\n')}`,
    );
  }
  return scenario;
}

export function describeParameters(scenario: Scenario): string {
  return scenario.parameters
    .map((p) => `  ${p.name.padEnd(12)} ${p.description} (default ${p.defaultValue}, ${p.min}..${p.max})`)
    .join('\n');
}

/** The scenario's parameters: its defaults overridden by `overrides`, each validated. */
export function resolveParameters(scenario: Scenario, overrides: Readonly<Record<string, number>>): Record<string, number> {
  const resolved: Record<string, number> = {};
  for (const p of scenario.parameters) resolved[p.name] = p.defaultValue;
  for (const [name, value] of Object.entries(overrides)) {
    const p = scenario.parameters.find((q) => q.name === name);
    if (!p) {
      throw new ScenarioError(
        `scenario ${scenario.name} has no parameter '${name}'; its parameters are:\n${describeParameters(scenario)}`,
      );
    }
    if (!Number.isFinite(value) || value < p.min || value > p.max || (p.integer && !Number.isInteger(value))) {
      throw new ScenarioError(
        `${scenario.name} parameter ${name} must be ${p.integer ? 'a whole number' : 'a number'} in ${p.min}..${p.max}, got ${value}`,
      );
    }
    resolved[name] = value;
  }
  return resolved;
}

/** A label naming the scenario and the parameters that differ from its defaults. */
export function scenarioLabel(scenario: Scenario, parameters: Readonly<Record<string, number>>): string {
  const changed = scenario.parameters.filter((p) => parameters[p.name] !== p.defaultValue);
  return changed.length === 0
    ? scenario.name
    : `${scenario.name} ${changed.map((p) => `${p.name}=${parameters[p.name]}`).join(' ')}`;
}
