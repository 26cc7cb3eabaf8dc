// Tests on ../shared data: they run where the data is (CI) and are skipped with a visible
// message elsewhere.

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared');
export const SWIM_DIR = join(SHARED_DIR, 'traces', 'swim');
export const SHARED_AVAILABLE = existsSync(SWIM_DIR);

if (!SHARED_AVAILABLE) {
  process.stderr.write(`\n[rmreplay tests] ${SHARED_DIR} not found: tests on shared traces are SKIPPED\n\n`);
}

/** Name suffix for tests that need ../shared, so a skip says why in the report. */
export const NEEDS_SHARED = SHARED_AVAILABLE ? '' : ' [SKIPPED: ../shared not found]';
