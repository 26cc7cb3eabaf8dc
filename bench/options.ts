// The options `npm run bench` takes, read the same way by the runner and by each part, so a
// mistyped option is refused instead of silently running every case.

import { parseArgs } from 'node:util';

export interface BenchOptions {
  readonly json: boolean;
  /** Runs per case (replay and ingest); the median is reported. */
  readonly repeat: number;
  /** Only the case of this name. */
  readonly only: string | undefined;
}

export const USAGE = `usage: npm run bench [-- [--json] [--repeat N] [--case NAME]]

  --json         one JSON object per case instead of the tables
  --repeat N     runs per replay, ingest or validate case, the median reported (default 3)
  --case NAME    only the case NAME (replay: terasort-batch, mixed-spc, fb2009, fb2009-drf,
                   fb2010, million-day; sweep: sweep-terasort, sweep-marp; ingest: e.g. "2.7 CS stock 100 MB",
                   "dense real 2.8.5 x230", "400 MB again, grown 1%", "2 files at once", "10,000 files";
                   report: report-1000;
                 validate: whatif-m50, whatif-n30, whatif-q2-5050, whatif-f1)
  --help         this text
`;

/** The options, or the process exits: 0 after --help, 2 after a bad option (usage on stderr). */
export function benchOptions(argv: readonly string[]): BenchOptions {
  let values: { json?: boolean; repeat?: string; case?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { json: { type: 'boolean' }, repeat: { type: 'string' }, case: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const repeat = values.repeat === undefined ? 3 : Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1) {
    process.stderr.write(`bench: --repeat takes a whole number of runs, 1 or more (got ${values.repeat})\n`);
    process.exit(2);
  }
  return { json: values.json ?? false, repeat, only: values.case };
}
