// A built-in scenario: a named, parameterised experiment from a paper that builds its own
// workload and cluster from plain parameters and a seed.

import type { Cluster } from '../model/cluster.js';
import type { Workload } from '../model/workload.js';

export interface ScenarioParameter {
  readonly name: string;
  readonly description: string;
  readonly defaultValue: number;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

export interface ScenarioBuild {
  readonly workload: Workload;
  readonly cluster: Cluster;
}

export interface Scenario {
  readonly name: string;
  readonly summary: string;
  readonly parameters: readonly ScenarioParameter[];
  build(parameters: Readonly<Record<string, number>>, seed: number): ScenarioBuild;
}
