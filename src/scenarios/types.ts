// A built-in scenario: a named, parameterised experiment from a paper that builds its own
// workload and cluster from plain parameters and a seed, and may say which sweep it runs by
// default (the paper's experiment grid).

import type { Cluster } from '../model/cluster.js';
import type { Workload } from '../model/workload.js';

export type ParameterValue = number | string;

interface ParameterBase {
  readonly name: string;
  readonly description: string;
}

export interface NumberParameter extends ParameterBase {
  readonly kind: 'number';
  readonly defaultValue: number;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

/** A parameter that takes one of a few named values (a queue structure, say). */
export interface ChoiceParameter extends ParameterBase {
  readonly kind: 'choice';
  readonly defaultValue: string;
  readonly choices: readonly string[];
}

export type ScenarioParameter = NumberParameter | ChoiceParameter;

export interface ScenarioBuild {
  readonly workload: Workload;
  readonly cluster: Cluster;
  /** The queue layout's name, for reports (e.g. `separate`); omitted: named after the leaf queues. */
  readonly queueStructure?: string;
  /** The app timeout the experiment uses when the user gives none; omitted: apps wait for ever. */
  readonly appTimeoutMs?: number;
}

/**
 * What `replay --scenario NAME` runs when the user narrows nothing: every scheduler, every
 * parameter set and every seed listed (the cross product). Options the user gives replace the
 * matching list.
 */
export interface ScenarioSweep {
  readonly schedulers: readonly string[];
  readonly parameterSets: readonly Readonly<Record<string, ParameterValue>>[];
  readonly seeds: readonly number[];
}

/**
 * What `sweep --scenario NAME` runs when the user narrows nothing: the paper's experiment grid
 * and the admission policies it compares (a static family over its range, the adaptive
 * controllers, the default), so the best static setting and each policy's Perf Score follow.
 * Lists left out are the scenario's sweep's, else one default each.
 */
export interface ScenarioStudy {
  readonly parameterSets: readonly Readonly<Record<string, ParameterValue>>[];
  readonly policies: readonly string[];
  readonly schedulers?: readonly string[];
  readonly seeds?: readonly number[];
}

export interface Scenario {
  readonly name: string;
  readonly summary: string;
  readonly parameters: readonly ScenarioParameter[];
  readonly sweep?: ScenarioSweep;
  readonly study?: ScenarioStudy;
  build(parameters: Readonly<Record<string, ParameterValue>>, seed: number): ScenarioBuild;
}
