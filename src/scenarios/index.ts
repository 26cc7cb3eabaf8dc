// The built-in scenarios, looked up by name; an unknown name or parameter lists the valid ones.

import { UserError } from '../model/errors.js';
import { autoadminMix } from './autoadmin-mix.js';
import { cassalesTerasort } from './cassales-terasort.js';
import { marpSwim } from './marp-swim.js';
import { marpTerasort } from './marp-terasort.js';
import { mixedSpc } from './mixed-spc.js';
import { terasortBatch } from './terasort-batch.js';
import type { ParameterValue, Scenario, ScenarioParameter } from './types.js';

export type { ParameterValue, Scenario, ScenarioBuild, ScenarioParameter, ScenarioStudy, ScenarioSweep } from './types.js';
export { choiceParameter, numberParameter } from './parameters.js';

export const SCENARIOS: readonly Scenario[] = [terasortBatch, autoadminMix, mixedSpc, marpSwim, marpTerasort, cassalesTerasort];

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

/** What values a parameter takes, for help texts and error messages. */
export function parameterRange(p: ScenarioParameter): string {
  return p.kind === 'choice' ? p.choices.join(' | ') : `${p.min}..${p.max}`;
}

function describeParameters(scenario: Scenario): string {
  return scenario.parameters
    .map((p) => `  ${p.name.padEnd(12)} ${p.description} (default ${p.defaultValue}, ${parameterRange(p)})`)
    .join('\n');
}

/**
 * The scenario's parameters: its defaults overridden by `overrides`, each validated. Values
 * may come as text from the command line (`--set queues=separate`, `--set jobs=10`).
 */
export function resolveParameters(
  scenario: Scenario,
  overrides: Readonly<Record<string, ParameterValue>>,
): Record<string, ParameterValue> {
  const resolved: Record<string, ParameterValue> = {};
  for (const p of scenario.parameters) resolved[p.name] = p.defaultValue;
  for (const [name, given] of Object.entries(overrides)) {
    const p = scenario.parameters.find((q) => q.name === name);
    if (!p) {
      throw new ScenarioError(
        `scenario ${scenario.name} has no parameter '${name}'; its parameters are:\n${describeParameters(scenario)}`,
      );
    }
    if (p.kind === 'choice') {
      const value = String(given);
      if (!p.choices.includes(value)) {
        throw new ScenarioError(`${scenario.name} parameter ${name} is one of ${p.choices.join(', ')}; got '${value}'`);
      }
      resolved[name] = value;
      continue;
    }
    const value = typeof given === 'number' ? given : given.trim() === '' ? NaN : Number(given);
    if (!Number.isFinite(value) || value < p.min || value > p.max || (p.integer && !Number.isInteger(value))) {
      throw new ScenarioError(
        `${scenario.name} parameter ${name} must be ${p.integer ? 'a whole number' : 'a number'} in ${p.min}..${p.max}, got ${String(given)}`,
      );
    }
    resolved[name] = value;
  }
  return resolved;
}

/** A label naming the scenario and the parameters that differ from its defaults. */
export function scenarioLabel(scenario: Scenario, parameters: Readonly<Record<string, ParameterValue>>): string {
  // Parameters the scenario's own sweep varies (its queue layouts, say) are reported in their
  // own columns, so runs of one sweep share a label.
  const swept = new Set((scenario.sweep?.parameterSets ?? []).flatMap((set) => Object.keys(set)));
  const changed = scenario.parameters.filter((p) => !swept.has(p.name) && parameters[p.name] !== p.defaultValue);
  return changed.length === 0
    ? scenario.name
    : `${scenario.name} ${changed.map((p) => `${p.name}=${parameters[p.name]}`).join(' ')}`;
}
