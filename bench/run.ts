// `npm run bench`: the replay part, the sweep part, the ingest part, the report part, then the
// what-if validation part, each given the same options (npm appends `-- ARGS` to the last command
// of a script only, so the parts cannot be chained there).

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { INGEST_CASE_NAMES } from './ingest.js';
import { benchOptions } from './options.js';
import { REPLAY_CASE_NAMES } from './replay.js';
import { REPORT_CASE_NAMES } from './report.js';
import { SWEEP_CASE_NAMES } from './sweep.js';
import { VALIDATE_CASE_NAMES } from './validate.js';

const args = process.argv.slice(2);
const { only } = benchOptions(args);
const parts = [
  { script: 'replay.js', names: REPLAY_CASE_NAMES },
  { script: 'sweep.js', names: SWEEP_CASE_NAMES },
  { script: 'ingest.js', names: INGEST_CASE_NAMES },
  { script: 'report.js', names: REPORT_CASE_NAMES },
  { script: 'validate.js', names: VALIDATE_CASE_NAMES },
].filter((part) => only === undefined || part.names.includes(only));
if (parts.length === 0) {
  process.stderr.write(`bench: no case named "${only}"; cases: ${[...REPLAY_CASE_NAMES, ...SWEEP_CASE_NAMES, ...INGEST_CASE_NAMES, ...REPORT_CASE_NAMES, ...VALIDATE_CASE_NAMES].join(', ')}\n`);
  process.exit(2);
}
for (const part of parts) {
  execFileSync(process.execPath, [fileURLToPath(new URL(part.script, import.meta.url)), ...args], { stdio: 'inherit' });
}
