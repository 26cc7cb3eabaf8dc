// A notebook in a script: replay a batch of terasort jobs under a few admission policies and
// explore the results with SQL and arquero, through rmreplay's programmatic API. Each "cell"
// below is one step you would run in a notebook (Jupyter with a JavaScript kernel, Observable,
// or plain `node examples/notebook.mjs [DATABASE]`).
//
// It imports the package by its own name: inside this repository Node resolves 'rmreplay'
// through package.json "exports" to the build in dist/ (run `npm run build` first); elsewhere,
// after `npm install rmreplay`, the same line works as it is.

import { op } from 'arquero';
import { openDatabase } from 'rmreplay';

// Cell 1: a database. A file keeps the runs for later (`rmreplay sql`, `rmreplay report`);
// ':memory:' forgets them at the end.
const db = await openDatabase(process.argv[2] ?? ':memory:');

// Cell 2: replay the 66 terasort jobs AutoAdmin submits at once on the AutoAdmin testbed, under no AM limit,
// two static AM limits and the adaptive AutoAdmin controller, with two seeds each.
const runs = await db.replay({
  source: { kind: 'scenario', scenario: 'terasort-batch', parameters: {} },
  policies: ['none', 'am-share:0.1', 'am-share:0.5', 'autoadmin'],
  seeds: [1, 2],
});
console.log(`replayed ${runs.length} runs`);

// Cell 3: a report from queries/ comes back as an arquero table.
const makespan = await db.report('makespan');
makespan.select('run_id', 'policy', 'seed', 'makespan_s', 'outcome').print({ limit: 20 });

// Cell 4: shape it: the mean makespan per policy over the seeds that finished, best first.
const byPolicy = makespan
  .filter((d) => d.makespan_s !== null)
  .groupby('policy')
  .rollup({ seeds: op.count(), mean_makespan_s: op.mean('makespan_s') })
  .orderby('mean_makespan_s');
byPolicy.print();
const deadlocked = makespan.filter((d) => d.outcome === 'DEADLOCK').numRows();

// Cell 5: any SQL, its values bound: the highest AM share each policy reached, per seed,
// pivoted to one column per seed.
const amShare = await db.query(
  `SELECT r.policy, 'seed ' || r.seed AS seed, max(s.am_share) AS peak_am_share
     FROM latest_runs AS r JOIN run_samples AS s USING (run_id)
    WHERE r.trace = $trace
    GROUP BY r.policy, r.seed`,
  { trace: 'terasort-batch' },
);
amShare.groupby('policy').pivot('seed', 'peak_am_share').orderby('policy').print();

// Cell 6: what to take away, as one line a script can read.
const best = byPolicy.object(0);
console.log(
  `best policy: ${best.policy} (mean makespan ${best.mean_makespan_s.toFixed(1)} s over ${best.seeds} seeds); ` +
    `${deadlocked} run(s) deadlocked`,
);

db.close();
