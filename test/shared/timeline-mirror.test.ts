// The recorded timeline's container facts mirror the rm_containers view on every real RM log in
// ../shared, as written and without its MasterContainer lines: the 2.6 and 2.7 logs print
// container priorities (LeafQueue assignedContainer), so the AM is then found by priority 0.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { tempFile } from '../helpers/files.js';
import { NEEDS_SHARED, SHARED_AVAILABLE } from '../helpers/shared.js';
import { withStore } from '../helpers/store.js';
import { mirrorMismatches, NO_MISMATCH } from '../helpers/timeline-mirror.js';
import { RMLOGS_DIR } from './rmlog-expected.js';

/** Every RM log in ../shared: the real runs' rm.log and each log of the collected ones. */
function realLogs(): string[] {
  if (!SHARED_AVAILABLE) return [];
  return readdirSync(RMLOGS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(RMLOGS_DIR, d.name))
        .filter((f) => f === 'rm.log' || (/\.(log|txt)$/.test(f) && !/^(nm\d|driver|applist|input_listing)/.test(f)))
        .map((f) => join(d.name, f)),
    );
}

describe.skipIf(!SHARED_AVAILABLE)(`the recorded timeline mirrors rm_containers on the real logs${NEEDS_SHARED}`, () => {
  it.each(realLogs().flatMap((log) => [[log, 'as written'], [log, 'without MasterContainer lines']]))('%s, %s', async (log, how) => {
    let text = readFileSync(join(RMLOGS_DIR, log), 'latin1');
    if (how !== 'as written') text = text.split('\n').filter((line) => !line.includes('MasterContainer')).join('\n');
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [tempFile(`mirror-${log.replace(/\W+/g, '-')}.log`, Buffer.from(text, 'latin1'))], name: 'real' });
      const found = await mirrorMismatches(store, 'real');
      expect(found.mismatches).toEqual(NO_MISMATCH);
    });
  });
});
