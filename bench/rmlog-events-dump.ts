// `node dist/bench/rmlog-events-dump.js DIR`: ingests a fixed set of RM logs (every fixture the
// renderer writes: each scheduler, Hadoop version and layout; generated logs of a few MB, plain,
// gzip-compressed, rotated and grown in two steps; every log in ../shared) and writes what the
// store holds of each as CSV files in DIR: its rmlog_events, its ingest_rejects, its
// rmlog_files counts, in file and line order, and its recorded samples (rm_sampling, rm_samples,
// rm_queue_samples). Run it before and after a change to the ingest
// that must not change what is stored, and `diff -r` the two directories. One line per trace
// (`name rows sha256`) goes to stdout. A second argument sets the ingest's parser threads (0:
// parse in the main thread; default: as ingest chooses). DIR must be new or empty.
//
//   node dist/bench/rmlog-events-dump.js /tmp/before   (then change, rebuild, and again /tmp/after)

import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ingestRmLog } from '../src/ingest/rmlog/ingest.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { Store } from '../src/store/index.js';
import { writeBigRmLog } from '../test/fixtures/rmlog/big-log.js';
import { renderRmLog } from '../test/fixtures/rmlog/render.js';
import { HADOOP_VERSIONS, LOG_LAYOUTS } from '../test/fixtures/rmlog/scenario.js';
import type { HadoopVersion, SchedulerKind } from '../test/fixtures/rmlog/scenario.js';
import { smallScenario } from '../test/fixtures/rmlog/scenarios.js';

const SHARED_RMLOGS = resolve(PACKAGE_ROOT, '..', 'shared', 'traces', 'rmlogs');
const MB = 1_000_000;

/** Lines that each exercise a reject or an accounting rule (kept short: no line near the length cap). */
const MALFORMED = [
  '2024-05-01 10:00:00,000 INFO org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService: NodeManager from node w1(cmPort: 1 httpPort: 2) registered with capability: <memory:8192, vCores:8>, assigned nodeId w1:1',
  '2024-05-01 10:00:01,001 INFO org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode: Assigned container container_1714557600000_0001_01_000001 of capacity <memory:20',
  '\u0000\u0001\u0002\u00ff binary',
  '2024-05-01 09:59:59,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0001_01_000001 Container Transitioned from ALLOCATED to ACQUIRED',
  '2024-05-01 10:00:06,000 INFO org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl: container_1714557600000_0001_01 Container Transitioned from RUNNING to COMPLETED',
  '2024-05-01 10:00:07 INFO this timestamp has no milliseconds',
  '2024-05-01 10:00:08,000 WARN org.apache.hadoop.yarn.server.resourcemanager.RMAuditLogger: USER=a b  OPERATION=Submit Application Request  TARGET=ClientRMService  RESULT=SUCCESS  APPID=application_1714557600000_0002',
  'an ordinary continuation line with é and 中文',
  '2024-05-01 10:00:09,000 ERROR org.apache.hadoop.yarn.server.resourcemanager.ResourceManager: unterminated last line',
].join('\r\n');

interface DumpCase {
  readonly name: string;
  /** Ingest calls in order, each a list of paths (one trace). */
  readonly ingests: readonly (readonly string[])[];
}

async function cases(work: string): Promise<DumpCase[]> {
  const out: DumpCase[] = [];
  const file = (name: string, content: string | Buffer): string => {
    const path = join(work, name);
    writeFileSync(path, content);
    return path;
  };
  for (const scheduler of ['capacity', 'fair'] as SchedulerKind[]) {
    for (const version of HADOOP_VERSIONS) {
      for (const layout of LOG_LAYOUTS) {
        const name = `small-${scheduler}-${version}-${layout}`;
        out.push({ name, ingests: [[file(`${name}.log`, renderRmLog(smallScenario(scheduler), { version, layout }))]] });
      }
    }
  }
  out.push({ name: 'malformed', ingests: [[file('malformed.log', MALFORMED)]] });
  const big: { version: HadoopVersion; scheduler: SchedulerKind; layout: 'stock' | 'hdp' | 'console' }[] = [
    { version: '2.7', scheduler: 'capacity', layout: 'stock' },
    { version: '2.8', scheduler: 'fair', layout: 'stock' },
    { version: '3.4', scheduler: 'capacity', layout: 'hdp' },
    { version: '2.2', scheduler: 'fair', layout: 'console' },
  ];
  for (const b of big) {
    const name = `big-${b.scheduler}-${b.version}-${b.layout}`;
    const path = join(work, `${name}.log`);
    await writeBigRmLog(path, { targetBytes: 8 * MB, seed: 5, ...b });
    out.push({ name, ingests: [[path]] });
  }
  // The 2.7 log again: compressed; grown in two steps, cut mid-line; rotated into two files.
  const text = readFileSync(join(work, 'big-capacity-2.7-stock.log'));
  out.push({ name: 'big-gzip', ingests: [[file('big.log.gz', gzipSync(text))]] });
  const cut = text.indexOf(10, Math.floor(text.length / 2)) - 11;
  const growing = file('growing.log', text.subarray(0, cut));
  out.push({ name: 'big-grown', ingests: [[growing], ['append', growing]] });
  const half = text.indexOf(10, Math.floor(text.length / 2)) + 1;
  mkdirSync(join(work, 'rotated'));
  const rotatedOld = file('rotated/rm.log.1', text.subarray(0, half));
  const rotatedNew = file('rotated/rm.log', text.subarray(half));
  out.push({ name: 'big-rotated', ingests: [[rotatedNew, rotatedOld]] });
  if (existsSync(SHARED_RMLOGS)) {
    for (const dir of readdirSync(SHARED_RMLOGS).sort()) {
      const full = join(SHARED_RMLOGS, dir);
      if (!statSync(full).isDirectory()) continue;
      for (const entry of readdirSync(full).sort()) {
        if (!/\.(log|txt)$/.test(entry)) continue;
        out.push({ name: `shared-${dir}-${entry}`, ingests: [[join(full, entry)]] });
      }
    }
    // One real log as four rotated files (rm.log.3 oldest .. rm.log newest), ingested in one
    // call: its samples must be those of the whole log in one file.
    const real = readFileSync(join(SHARED_RMLOGS, 'hadoop285-realrun-fair-2queues', 'rm.log'));
    mkdirSync(join(work, 'rotated4'));
    const cuts = [0, 1, 2, 3].map((q) => (q === 0 ? 0 : real.indexOf(10, Math.floor((q * real.length) / 4)) + 1));
    const pieces = cuts.map((from, q) =>
      file(`rotated4/rm.log${q === 3 ? '' : `.${3 - q}`}`, real.subarray(from, q === 3 ? real.length : cuts[q + 1])),
    );
    out.push({ name: 'shared-hadoop285-fair-4-rotated', ingests: [[...pieces].reverse()] });
  } else {
    process.stderr.write(`rmlog-events-dump: ${SHARED_RMLOGS} not found; shared logs left out\n`);
  }
  return out;
}

async function dumpCase(c: DumpCase, work: string, outDir: string): Promise<string> {
  const store = await Store.open(':memory:');
  try {
    for (const paths of c.ingests) {
      if (paths[0] === 'append') {
        // The second step of a grown log: the rest of the text appended, then ingested again.
        const full = readFileSync(join(work, 'big-capacity-2.7-stock.log'));
        appendFileSync(paths[1]!, full.subarray(statSync(paths[1]!).size));
        await ingestRmLog(store, { paths: [paths[1]!], name: c.name, parserThreads });
      } else {
        await ingestRmLog(store, { paths, name: c.name, parserThreads });
      }
    }
    const hash = createHash('sha256');
    let rows = 0;
    for (const [table, sql] of [
      ['events', 'SELECT * EXCLUDE (file_id) FROM rmlog_events ORDER BY file_id, line_number'],
      ['rejects', 'SELECT * EXCLUDE (file_id, trace) FROM ingest_rejects ORDER BY file_id, line_number'],
      // The temporary directory differs from run to run: only the file name is compared.
      ['files', `SELECT regexp_replace(path, '.*/', '') AS file_name, * EXCLUDE (file_id, trace, path, ingested_at) FROM rmlog_files ORDER BY file_id`],
      // The recorded cluster's samples, taken in each ingest's transaction.
      ['sampling', 'SELECT * FROM rm_sampling ORDER BY trace'],
      ['samples', 'SELECT * FROM rm_samples ORDER BY trace, time_ms'],
      ['queue-samples', 'SELECT * FROM rm_queue_samples ORDER BY trace, time_ms, queue'],
    ] as const) {
      const path = join(outDir, `${c.name}.${table}.csv`);
      await store.run(`COPY (${sql}) TO '${path.replace(/'/g, "''")}' (HEADER, DELIMITER ',')`);
      const content = readFileSync(path);
      hash.update(content);
      rows += content.toString('utf8').split('\n').length - 2;
    }
    return `${c.name} ${rows} ${hash.digest('hex')}`;
  } finally {
    store.close();
  }
}

const outDir = process.argv[2];
const parserThreads = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
if (!outDir || (parserThreads !== undefined && !Number.isInteger(parserThreads))) {
  process.stderr.write('usage: node dist/bench/rmlog-events-dump.js OUTPUT_DIR [PARSER_THREADS]\n');
  process.exit(2);
}
// A directory given on the command line is never emptied: it may be anyone's (issue 23).
if (existsSync(outDir) && (!statSync(outDir).isDirectory() || readdirSync(outDir).length > 0)) {
  process.stderr.write(`rmlog-events-dump: ${outDir} exists and is not an empty directory; give a new one (remove an old dump yourself)\n`);
  process.exit(2);
}
mkdirSync(outDir, { recursive: true });
const work = join(tmpdir(), `rmreplay-dump-${process.pid}`);
mkdirSync(work);
try {
  for (const c of await cases(work)) console.log(await dumpCase(c, work, outDir));
} finally {
  rmSync(work, { recursive: true, force: true });
}
