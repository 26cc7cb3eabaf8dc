// `node dist/bench/result-hashes.js`: one SHA-256 per replay result over a fixed set of runs (the
// built-in scenarios, the SWIM days, the real RM logs as recorded), printed as `name hash` lines.
// Run it before and after a change that must not change results (a refactor, a speed-up) and
// diff the two outputs: any difference names the run whose result moved. Runs on ../shared data
// are left out, saying so, when it is absent.
//
//   node dist/bench/result-hashes.js > before.txt   (then change, rebuild, and again > after.txt)

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ingestRmLog } from '../src/ingest/rmlog/ingest.js';
import { resolveSource } from '../src/api/replay.js';
import { ingestSwim } from '../src/ingest/swim/ingest.js';
import type { Cluster } from '../src/model/cluster.js';
import { contentionSettings, DEFAULT_CONTENTION } from '../src/model/contention.js';
import type { ContentionSettings } from '../src/model/contention.js';
import type { NodeTimeline } from '../src/model/node-timeline.js';
import type { Workload } from '../src/model/workload.js';
import { parseAdmissionPolicy } from '../src/policies/admission/index.js';
import { applySchedulingPolicy, SCHEDULING_POLICIES } from '../src/policies/scheduling/index.js';
import type { SchedulingPolicyName } from '../src/policies/scheduling/index.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { DEFAULT_SAMPLE_INTERVAL_MS } from '../src/model/run-durations.js';
import { replay } from '../src/replay/engine.js';
import { findScenario, resolveParameters } from '../src/scenarios/index.js';
import { Store } from '../src/store/index.js';

const SHARED = resolve(PACKAGE_ROOT, '..', 'shared', 'traces');

interface HashCase {
  readonly name: string;
  readonly workload: Workload;
  readonly cluster: Cluster;
  /** An RM log's node membership, when its nodes changed while its apps ran. */
  readonly nodeTimeline?: NodeTimeline | null;
  readonly policy: string;
  readonly seed: number;
  readonly appTimeoutMs: number | null;
  readonly recordContainers: boolean;
  /** Tasks share their nodes' cores, as `replay` has them by default: for scenarios (docs/model.md, "Contention"). */
  readonly contention?: ContentionSettings | null;
}

/** Summary counts and failure causes added with node membership, kills and attempts (docs/model.md 12). */
/** The final status each end state implies when no log recorded another (outcome.ts). */
const IMPLIED_FINAL_STATUS: Readonly<Record<string, string>> = {
  FINISHED: 'SUCCEEDED',
  FAILED: 'FAILED',
  REJECTED: 'FAILED',
  KILLED: 'KILLED',
  RUNNING: 'UNDEFINED',
  ACCEPTED: 'UNDEFINED',
};

const ADDED_COUNTS: ReadonlySet<string> = new Set(['appsKilled', 'containersLost']);
const ADDED_CAUSES: ReadonlySet<string> = new Set(['am-failed', 'rm-restart']);

function queuesOf(workload: Workload): string[] {
  return workload.apps.map((app) => app.queue);
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function print(c: HashCase): void {
  const { controllerSteps, summary, apps, ...rest } = replay({
    workload: c.workload,
    cluster: c.cluster,
    nodeTimeline: c.nodeTimeline ?? undefined,
    admission: parseAdmissionPolicy(c.policy),
    options: { seed: c.seed, appTimeoutMs: c.appTimeoutMs, recordContainers: c.recordContainers, contention: c.contention ?? null },
  });
  // The event count measures the engine's work, not what it models: an engine that skips events
  // that could change nothing must hash the same. Results from before controllers existed had
  // no steps: an empty list is left out, so their hashes still compare; any step is hashed.
  // Likewise what results have counted since nodes could come and go, apps be killed and
  // attempts fail (docs/model.md 12) is left out while it holds what every earlier run had (no
  // app killed or lost, no container lost, no attempt after the first); any other value is hashed.
  const summaryHashed = Object.fromEntries(
    Object.entries(summary).flatMap(([key, value]): [string, unknown][] => {
      if (key === 'events' || (ADDED_COUNTS.has(key) && value === 0)) return [];
      // Likewise the interval of the stored samples, recorded since samples can be coarsened: left
      // out while it is the default every case asks for.
      if (key === 'sampleIntervalMs' && value === DEFAULT_SAMPLE_INTERVAL_MS) return [];
      if (key !== 'failuresByCause') return [[key, value]];
      const causes = Object.entries(value as Record<string, number>).filter(([cause, n]) => !(ADDED_CAUSES.has(cause) && n === 0));
      return [[key, Object.fromEntries(causes)]];
    }),
  );
  // An app's final status (schema 15) is left out while it is the one its state implies, as every
  // result before it had; a FINISHED app whose log recorded FAILED or KILLED is hashed with it.
  const appsHashed = apps.map(({ attempts, finalStatus, ...app }) => ({
    ...app,
    ...(attempts <= 1 ? {} : { attempts }),
    ...(finalStatus === IMPLIED_FINAL_STATUS[app.state] ? {} : { finalStatus }),
  }));
  const result = {
    summary: summaryHashed,
    apps: appsHashed,
    ...rest,
    ...(controllerSteps.timeMs.length === 0 ? {} : { controllerSteps }),
  };
  console.log(`${c.name} ${hashOf(result)}`);
}

function scenarioCases(): HashCase[] {
  const cases: HashCase[] = [];
  const terasort = findScenario('terasort-batch');
  for (const policy of ['none', 'reserve:16', 'am-share:0.1']) {
    const built = terasort.build(resolveParameters(terasort, {}), 1);
    cases.push({ name: `terasort-batch/${policy}`, ...built, policy, seed: 1, appTimeoutMs: null, recordContainers: true, contention: DEFAULT_CONTENTION });
  }
  const mixed = findScenario('mixed-spc');
  for (const queues of ['one', 'separate', 'merged']) {
    for (const seed of [1, 2, 3]) {
      const built = mixed.build(resolveParameters(mixed, { queues }), seed);
      for (const scheduler of SCHEDULING_POLICIES) {
        cases.push({
          name: `mixed-spc/${queues}/${scheduler}/seed${seed}`,
          workload: built.workload,
          cluster: applySchedulingPolicy(built.cluster, scheduler, queuesOf(built.workload)).cluster,
          policy: 'as-configured',
          seed,
          appTimeoutMs: built.appTimeoutMs ?? null,
          recordContainers: true,
          contention: DEFAULT_CONTENTION,
        });
      }
    }
  }
  // Hundreds of apps held back by the AM limit: every heartbeat offers each node to all of them.
  const marp = findScenario('marp-swim');
  for (const [workload, scheduler] of [['W1', 'fair-fair'], ['W1', 'fair-drf'], ['W3', 'fair-drf']] as const) {
    const built = marp.build(resolveParameters(marp, { workload }), 1);
    cases.push({
      name: `marp-swim/${workload}/${scheduler}`,
      workload: built.workload,
      cluster: applySchedulingPolicy(built.cluster, scheduler, queuesOf(built.workload)).cluster,
      policy: 'am-share:0.1',
      seed: 1,
      appTimeoutMs: built.appTimeoutMs ?? null,
      recordContainers: false,
      contention: DEFAULT_CONTENTION,
    });
  }
  return cases;
}

async function swimCases(): Promise<HashCase[]> {
  const path = join(SHARED, 'swim', 'FB-2009_samples_24_times_1hr_0.tsv');
  if (!existsSync(path)) {
    console.error(`result-hashes: ${path} not found; the SWIM runs are SKIPPED`);
    return [];
  }
  // Through ingest and the trace format, as `replay --trace` gets it.
  const store = await Store.open(':memory:');
  try {
    await ingestSwim(store, { path, name: 'fb2009' });
    const { workload, cluster, contentionByDefault } = await resolveSource(store, { source: { kind: 'trace', trace: 'fb2009' }, cluster: 'fb2009-600' }, 1);
    return (['capacity-fifo', 'fair-drf'] as SchedulingPolicyName[]).map((scheduler) => ({
      name: `fb2009/${scheduler}`,
      workload,
      cluster: applySchedulingPolicy(cluster, scheduler, queuesOf(workload)).cluster,
      policy: 'am-share:0.1',
      seed: 1,
      appTimeoutMs: null,
      recordContainers: false,
      contention: contentionSettings(undefined, contentionByDefault),
    }));
  } finally {
    store.close();
  }
}

const RM_LOGS: readonly string[] = [
  'goaxe-hadoop273-cs-3nodes/yarn-root-resourcemanager-tfs01.log',
  'hadoop285-realrun-cs-wordcount-pi/rm.log',
  'hadoop285-realrun-fair-2queues/rm.log',
  'kyoon3-hadoop265-cs/yarn-root-resourcemanager-ip-172-31-2-135.log',
  'lohitha-hadoop281-cs/resourcemanager.log',
];

async function rmLogCases(): Promise<HashCase[]> {
  const dir = join(SHARED, 'rmlogs');
  if (!existsSync(dir)) {
    console.error(`result-hashes: ${dir} not found; the RM-log runs are SKIPPED`);
    return [];
  }
  const cases: HashCase[] = [];
  const store = await Store.open(':memory:');
  try {
    for (const path of RM_LOGS) {
      const name = path.split('/')[0]!;
      await ingestRmLog(store, { paths: [join(dir, path)], name });
      const source = await resolveSource(store, { source: { kind: 'trace', trace: name } }, 1);
      cases.push({
        name: `rmlog/${name}`,
        ...source,
        policy: 'as-configured',
        seed: 1,
        appTimeoutMs: null,
        recordContainers: true,
        contention: contentionSettings(undefined, source.contentionByDefault),
      });
    }
  } finally {
    store.close();
  }
  return cases;
}

for (const c of [...scenarioCases(), ...(await rmLogCases()), ...(await swimCases())]) print(c);
