// Writes docs/cli.md from the program's own --help (src/cli/help-doc.ts). Run: npm run docs:cli

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../src/api/index.js';
import { cliReference } from '../src/cli/help-doc.js';
import { PACKAGE_ROOT } from '../src/paths.js';

// An empty environment: the page must not depend on who generated it ($RMREPLAY_DB, npx or not).
const page = cliReference({
  api,
  openStore: () => {
    throw new Error('the help page opens no database');
  },
  stdout: process.stdout,
  stderr: process.stderr,
  env: {},
});
writeFileSync(join(PACKAGE_ROOT, 'docs', 'cli.md'), page);
