// The same API from TypeScript: the package's declarations type every call. Not run; the test
// in test/examples/ type-checks it against the build, so a change that loses the types fails.

import type { ColumnTable } from 'arquero';
import { openDatabase } from 'rmreplay';
import type { Database, ReplayRun, RunListing } from 'rmreplay';

export async function bestPolicy(path: string): Promise<string | null> {
  const db: Database = await openDatabase(path, { readOnly: true });
  try {
    const makespan: ColumnTable = await db.report('makespan', { trace: 'terasort-batch' });
    const runs: RunListing[] = await db.runs({ status: 'current' });
    const finished = runs.filter((run) => run.makespanMs !== null);
    // @ts-expect-error: a run status is one of current, replaced, superseded.
    await db.runs({ status: 'stale' });
    return makespan.numRows() > 0 && finished.length > 0 ? String(makespan.get('policy', 0)) : null;
  } finally {
    db.close();
  }
}

export async function replayOne(db: Database): Promise<number | null> {
  const [run]: ReplayRun[] = await db.replay({ source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } } });
  // @ts-expect-error: a replay needs a source.
  await db.replay({ policies: ['none'] });
  return run?.summary.makespanMs ?? null;
}
