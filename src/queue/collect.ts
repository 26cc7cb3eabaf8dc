// `rmreplay collect DIR`: load the runs queue workers wrote under a results directory into the
// database, in one transaction. Idempotent by spec hash: a run already stored is passed over,
// so collecting twice changes nothing. Every run's files are read before anything is loaded; a
// damaged file (a crash mid-write on a filesystem that does not rename atomically, a disk that
// filled) stops the collect with its path and nothing is loaded.
//
// Runs keep the run id their sweep reserved, so a sweep collected from the queue numbers its runs
// as the same sweep run locally. A run whose id is taken (collected into another database than
// its sweep's) or was never handed out by this database's sequence gets a new one: the sequence
// must stay ahead of every id.

import { UserError } from '../model/errors.js';
import { dirname } from 'node:path';
import { reserveRunIds, RUN_TABLES, storedRunIds, stringListParam } from '../store/index.js';
import type { RunFile, Store } from '../store/index.js';
import { checkResultsDirReadable, listRunResults, runResultDir, runResultFiles } from './results-dir.js';

export interface CollectResult {
  /** Run directories found. */
  readonly found: number;
  /** Loaded now. */
  readonly collected: number;
  /** Stored before (by spec hash): passed over. */
  readonly alreadyStored: number;
  /** Loaded under another run id than their sweep reserved. */
  readonly renumbered: number;
}

interface FoundRun {
  readonly specSha256: string;
  readonly dir: string;
  readonly files: readonly RunFile[];
  readonly runId: number;
}

/** Collect every run under `dir`, or only those of `only` (spec hashes). */
export async function collectResults(store: Store, dir: string, only?: ReadonlySet<string>): Promise<CollectResult> {
  await checkResultsDirReadable(dir);
  const stored = await storedRunIds(store);
  const hashes = (await listRunResults(dir)).filter((hash) => !only || only.has(hash));
  const fresh = hashes.filter((hash) => !stored.has(hash));
  const runs = await readRuns(store, dir, fresh);
  let renumbered = 0;
  if (runs.length > 0) {
    try {
      await store.transaction(async () => {
        renumbered = await loadRuns(store, runs);
      });
    } catch (error) {
      // Rolled back: name the file that could not be read, if that was the cause.
      await throwIfDamaged(store, runs);
      throw error;
    }
  }
  return { found: hashes.length, collected: runs.length, alreadyStored: hashes.length - fresh.length, renumbered };
}

/** The runs' files, and the run id each run was written under (its runs file read through). */
async function readRuns(store: Store, dir: string, specSha256s: readonly string[]): Promise<FoundRun[]> {
  const found: { specSha256: string; dir: string; files: RunFile[] }[] = [];
  for (const specSha256 of specSha256s) {
    const runDir = runResultDir(dir, specSha256);
    const files = await runResultFiles(dir, specSha256);
    if (!files.some((file) => file.table === 'runs')) {
      throw new UserError(`${runDir} holds no runs.parquet: not a whole run; remove the directory and run the sweep again`);
    }
    const stray = files.find((file) => !RUN_TABLES.includes(file.table));
    if (stray) throw new UserError(`${stray.path}: ${stray.table} is not a run table`);
    found.push({ specSha256, dir: runDir, files });
  }
  if (found.length === 0) return [];
  const runsPaths = found.map((run) => run.files.find((file) => file.table === 'runs')!.path);
  if (!(await readable(store, runsPaths))) await throwIfDamaged(store, found);
  const { rows } = await store.query('SELECT parse_dirpath(filename), run_id, spec_sha256 FROM read_parquet($paths::VARCHAR[], filename = true)', {
    paths: stringListParam(runsPaths),
  });
  const byDir = new Map(rows.map((row) => [String(row[0]), { runId: Number(row[1]), specSha256: String(row[2]) }]));
  return found.map((run) => {
    const row = byDir.get(run.dir);
    if (rows.filter((r) => String(r[0]) === run.dir).length !== 1 || row?.specSha256 !== run.specSha256) {
      throw new UserError(`${run.dir}/run.runs.parquet is not the one run its directory names: nothing was collected`);
    }
    return { ...run, runId: row.runId };
  });
}

/** Fail naming the first file of `runs` that cannot be read, if one cannot. */
async function throwIfDamaged(store: Store, runs: readonly { readonly files: readonly RunFile[] }[]): Promise<void> {
  for (const run of runs) {
    for (const file of run.files) {
      if (await readable(store, [file.path])) continue;
      throw new UserError(`${file.path} cannot be read: nothing was collected; remove ${dirname(file.path)} and run the sweep again`);
    }
  }
}

async function readable(store: Store, paths: readonly string[]): Promise<boolean> {
  try {
    await store.query('SELECT count(*) FROM read_parquet($paths::VARCHAR[])', { paths: stringListParam(paths) });
    return true;
  } catch {
    return false;
  }
}

/** Load the runs, renumbering those whose id cannot be kept; returns how many were renumbered. */
async function loadRuns(store: Store, runs: readonly FoundRun[]): Promise<number> {
  const taken = new Set((await store.query('SELECT run_id FROM runs')).rows.map((row) => Number(row[0])));
  // What the sequence hands out next (DuckDB's own view of a sequence's last value changes
  // meaning when the database is reopened); taken here, it is the first new id if one is needed.
  const [next] = await reserveRunIds(store, 1);
  const keeps = runs.map((run) => {
    const keep = !taken.has(run.runId) && run.runId >= 1 && run.runId < next!;
    if (keep) taken.add(run.runId);
    return keep;
  });
  const renumbered = keeps.filter((keep) => !keep).length;
  const fresh = renumbered === 0 ? [] : [next!, ...(await reserveRunIds(store, renumbered - 1))];
  const newIds = runs.map((run, i) => (keeps[i] ? run.runId : fresh.shift()!));
  // Inside the caller's transaction: rolled back with it on failure, dropped here on success.
  await store.run('CREATE TEMP TABLE collect_run_ids (dir VARCHAR, run_id INTEGER)');
  {
    await store.append('collect_run_ids', (a) => {
      runs.forEach((run, i) => {
        a.appendVarchar(run.dir);
        a.appendInteger(newIds[i]!);
        a.endRow();
      });
    });
    for (const table of RUN_TABLES) {
      const paths = runs.flatMap((run) => run.files.filter((file) => file.table === table).map((file) => file.path));
      if (paths.length === 0) continue;
      // By name: a database brought up to date by migrations may order its columns otherwise.
      // Table names come from RUN_TABLES, never from input; paths are bound.
      await store.run(
        `INSERT INTO ${table} BY NAME
           SELECT p.* EXCLUDE (filename) REPLACE (m.run_id AS run_id)
             FROM read_parquet($paths::VARCHAR[], filename = true) p
             JOIN collect_run_ids m ON m.dir = parse_dirpath(p.filename)`,
        { paths: stringListParam(paths) },
      );
    }
  }
  await store.run('DROP TABLE collect_run_ids');
  return renumbered;
}
