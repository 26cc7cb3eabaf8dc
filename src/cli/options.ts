// Option value parsers shared by commands; a bad value is reported by commander as a usage error.

import { InvalidArgumentError } from 'commander';
import type { Command } from 'commander';
import type { ClusterSources, ReplaySource } from '../api/index.js';
import { UserError } from '../api/command-line.js';
import { CapacityModeError, capacityModeUsage, parseCapacityMode } from '../api/command-line.js';
import type { CapacityMode } from '../model/capacity-mode.js';
import { SWIM_BYTES } from '../api/command-line.js';
import { CONTENTION_CHOICES, DEFAULT_CONTENTION } from '../api/command-line.js';
import type { ContentionChoice } from '../model/contention.js';
import type { SwimBytes } from '../model/run-spec.js';
import { MAX_NODE_COUNT } from '../api/command-line.js';
import { APP_TIMEOUT, durationProblem, HORIZON, MIN_SAMPLE_INTERVAL_MS, SAMPLE_INTERVAL, secondsToMs } from '../api/command-line.js';
import type { DurationRule } from '../model/run-durations.js';

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError('expected a non-negative whole number');
  }
  return n;
}

/** A duration option in seconds of at least a millisecond, to the millisecond (the clock's resolution). */
export const positiveSeconds = (value: string): number => durationSeconds({ option: 'a duration', minMs: 1 })(value);

/** A duration option in seconds, checked against its rule (whole milliseconds, within bounds). */
function durationSeconds(rule: DurationRule): (value: string) => number {
  return (value) => {
    const seconds = value.trim() === '' ? NaN : Number(value);
    const problem = durationProblem(seconds, rule);
    if (problem !== null) throw new InvalidArgumentError(problem);
    return seconds;
  };
}

/**
 * `--set name=value`, repeatable, into a record: numbers stay numbers, anything else is a
 * choice (the scenario checks which values are valid).
 */
export function collectSetting(
  value: string,
  previous: Record<string, number | string>,
): Record<string, number | string> {
  const eq = value.indexOf('=');
  const name = eq < 0 ? '' : value.slice(0, eq).trim();
  const text = eq < 0 ? '' : value.slice(eq + 1).trim();
  if (name === '' || text === '') throw new InvalidArgumentError(`expected name=value, got '${value}'`);
  const number = Number(text);
  return { ...previous, [name]: Number.isFinite(number) ? number : text };
}

const SEED_RANGE = /^(\d+)\.\.(\d+)$/;
const MAX_SEEDS = 1000;

/** `--seed N` or `--seed A..B`, repeatable, into a list of seeds. */
export function collectSeeds(value: string, previous: number[]): number[] {
  const range = SEED_RANGE.exec(value.trim());
  if (!range) return [...previous, wholeNumber(value)];
  const from = Number(range[1]);
  const to = Number(range[2]);
  if (to < from || to - from >= MAX_SEEDS) {
    throw new InvalidArgumentError(`expected A..B with A <= B and at most ${MAX_SEEDS} seeds, got '${value}'`);
  }
  const seeds = [...previous];
  for (let seed = from; seed <= to; seed++) seeds.push(seed);
  return seeds;
}

export function positiveWholeNumber(value: string): number {
  const n = wholeNumber(value);
  if (n < 1) throw new InvalidArgumentError('expected a whole number of at least 1');
  return n;
}

export function collectRunId(value: string, previous: number[]): number[] {
  return [...previous, wholeNumber(value)];
}

/** `--capacity MODE`: a bad spec is a usage error that says what is valid. */
export function capacityMode(value: string): CapacityMode {
  try {
    return parseCapacityMode(value);
  } catch (error) {
    if (error instanceof CapacityModeError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}

/** Worker processes for --workers: a positive whole number, at most 256 (the machine's own cap is applied later). */
export function workerCountOption(value: string): number {
  const n = positiveWholeNumber(value);
  if (n > 256) throw new InvalidArgumentError('expected at most 256 workers');
  return n;
}

/** A node count for --nodes: at least 1, at most MAX_NODE_COUNT. */
export function nodeCountOption(value: string): number {
  const n = positiveWholeNumber(value);
  if (n > MAX_NODE_COUNT) throw new InvalidArgumentError(`expected at most ${MAX_NODE_COUNT} nodes`);
  return n;
}

/** `--nodes 50,100,200` (or one count): the node counts of a node sweep, each once. */
export function nodeCountList(value: string): number[] {
  const counts = value.split(',').map((part) => nodeCountOption(part.trim()));
  return [...new Set(counts)];
}

/** `--swim-bytes scaled|recorded`. */
export function swimBytesOption(value: string): SwimBytes {
  const mode = SWIM_BYTES.find((m) => m === value.trim());
  if (!mode) throw new InvalidArgumentError(`expected ${SWIM_BYTES.join(' or ')}`);
  return mode;
}

/** `--contention on|off`. */
export function contentionOption(value: string): ContentionChoice {
  const choice = CONTENTION_CHOICES.find((c) => c === value.trim());
  if (!choice) throw new InvalidArgumentError(`expected ${CONTENTION_CHOICES.join(' or ')}`);
  return choice;
}

const NODES_HELP =
  "this many nodes: with the XML files, of yarn-site.xml's NodeManager size; otherwise the cluster's node groups " +
  'scaled to it in proportion (the cluster is then named NAME@N)';

/**
 * The options that say which cluster to replay on: a cluster file (`clusterHelp` says what it
 * replaces for this command), Hadoop's own configuration files, a node count (several, a node
 * sweep, where the command runs a grid), and what the nodes advertise.
 */
export function addClusterOptions(command: Command, clusterHelp: string, nodeSweep = false): Command {
  command
    .option('--cluster <file>', clusterHelp)
    .option('--yarn-site <file>', "the cluster's yarn-site.xml: scheduler class, allocation sizes, NodeManager size")
    .option('--capacity-scheduler <file>', 'a capacity-scheduler.xml: CapacityScheduler queues and limits')
    .option('--fair-scheduler <file>', 'a fair-scheduler.xml allocation file: FairScheduler queues, weights and policies');
  if (nodeSweep) {
    command.option('--nodes <n[,n...]>', `${NODES_HELP}; several counts, e.g. 50,100,200, replay each (a node sweep)`, nodeCountList);
  } else {
    command.option('--nodes <n>', NODES_HELP, nodeCountOption);
  }
  return command
    .option(
      '--capacity <mode>',
      "what the nodes advertise: configured, hardware or context-aware[:min=S,max=S] (default: the cluster file's capacityMode, else configured)",
      capacityMode,
    )
    .addHelpText(
      'after',
      `\nCapacity modes (--capacity; hardware and context-aware read each node group's \`hardware\`):\n` +
        `${capacityModeUsage()}\n`,
    );
}

/** What addClusterOptions parsed, as the API takes it. */
export function clusterSources(options: ClusterSources): ClusterSources {
  const { cluster, yarnSite, capacityScheduler, fairScheduler, nodes, capacity } = options;
  return { cluster, yarnSite, capacityScheduler, fairScheduler, nodes, capacity };
}

function gridClusterSources(options: RunGridOptions): ClusterSources & { nodeCounts?: number[] } {
  const { nodes, ...rest } = options;
  const sources = clusterSources({ ...rest, nodes: nodes?.length === 1 ? nodes[0] : undefined });
  return nodes !== undefined && nodes.length > 1 ? { ...sources, nodeCounts: nodes } : sources;
}

/** The options that name the runs of a grid, shared by `replay` and `sweep` (RunGridOptions). */
export function addRunGridOptions(command: Command, scenarioNames: readonly string[]): Command {
  return addClusterOptions(
    command
      .option('--trace <name>', 'an ingested trace (see `rmreplay traces`)')
      .option('--scenario <name>', `a built-in scenario: ${scenarioNames.join(', ')}`),
    'cluster JSON file, or the name of one in clusters/',
    true,
  )
    .option(
      '--swim-bytes <mode>',
      "a SWIM trace's bytes: scaled (default) by the cluster's nodes / the source's, as SWIM does (a smaller day on a " +
        'smaller cluster), or recorded, as the trace has them (the same day on this cluster)',
      swimBytesOption,
    )
    .option('-s, --scheduler <name>', 'scheduler and queue policies, repeatable', collect, [])
    .option('-p, --policy <spec>', 'admission policy or sweep, repeatable', collect, [])
    .option('--set <name=value>', 'scenario parameter, repeatable', collectSetting, {})
    .option('--seed <n|a..b>', "random seed or range, repeatable (default: 1, or the scenario's seeds)", collectSeeds, [])
    .option(
      '--app-timeout <seconds>',
      "an app that waits this long for a container fails (default: the scenario's, else never)",
      durationSeconds(APP_TIMEOUT),
    )
    .option(
      '--sample-interval <seconds>',
      `interval of the stored samples, at least ${MIN_SAMPLE_INTERVAL_MS / 1000} (default: 10; a run that would store ` +
        'too many samples keeps them at a multiple of it and says so)',
      durationSeconds(SAMPLE_INTERVAL),
    )
    .option('--horizon <seconds>', 'stop the simulation at this time', durationSeconds(HORIZON))
    .option(
      '--contention <on|off>',
      "tasks share their node's physical cores, slowing down when the node is overloaded (default: on for scenarios " +
        'and --capacity hardware or context-aware, off for RM logs and SWIM traces, whose durations already include it)',
      contentionOption,
    )
    .addHelpText(
      'after',
      '\nDurations are in seconds, to the millisecond (at most 3 decimals).\n' +
        "\nContention (--contention): when a node's running containers ask for more CPU than its cores (its group's\n" +
        '`hardware.cores`, else its vcores), each of its tasks runs at cores / demand of full speed, re-timed whenever a\n' +
        `container starts or ends there. A task asks for its vcores; an AM for ${DEFAULT_CONTENTION.amStartupCores} core while it starts and ` +
        `${DEFAULT_CONTENTION.amWorkCores} once registered.\n`,
    );
}

export interface RunGridOptions extends Omit<ClusterSources, 'nodes'> {
  /** One count, or several: a node sweep. */
  nodes?: number[];
  swimBytes?: SwimBytes;
  trace?: string;
  scenario?: string;
  scheduler: string[];
  policy: string[];
  set: Record<string, number | string>;
  seed: number[];
  appTimeout?: number;
  sampleInterval?: number;
  horizon?: number;
  contention?: ContentionChoice;
}

/** What addRunGridOptions parsed, as the API takes it (the source checked: one of --trace, --scenario). */
export function runGrid(options: RunGridOptions): {
  source: ReplaySource;
  nodeCounts?: number[];
  swimBytes?: SwimBytes;
  schedulers: string[];
  policies: string[];
  seeds: number[];
  appTimeoutMs?: number;
  sampleIntervalMs?: number;
  horizonMs?: number;
  contention?: ContentionChoice;
} & ClusterSources {
  if ((options.trace === undefined) === (options.scenario === undefined)) {
    throw new UserError('give exactly one of --trace NAME or --scenario NAME');
  }
  if (options.trace !== undefined && Object.keys(options.set).length > 0) {
    throw new UserError('--set applies to scenarios only');
  }
  return {
    source:
      options.trace !== undefined
        ? { kind: 'trace', trace: options.trace }
        : { kind: 'scenario', scenario: options.scenario!, parameters: options.set },
    ...gridClusterSources(options),
    swimBytes: options.swimBytes,
    schedulers: options.scheduler,
    policies: options.policy,
    seeds: options.seed,
    appTimeoutMs: options.appTimeout === undefined ? undefined : secondsToMs(options.appTimeout),
    sampleIntervalMs: options.sampleInterval === undefined ? undefined : secondsToMs(options.sampleInterval),
    horizonMs: options.horizon === undefined ? undefined : secondsToMs(options.horizon),
    contention: options.contention,
  };
}
