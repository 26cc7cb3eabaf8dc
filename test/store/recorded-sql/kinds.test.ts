// The files of sql/recorded/ write event kinds out as rm_event_kind constants, where the
// TypeScript that built them checked each kind at compile time: here every such constant must
// be a kind the reader makes (EVENT_KINDS), and the files are exactly the list RECORDED_SQL.

import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../../src/model/rm-events.js';
import { RM_RESET } from '../../../src/model/timeline.js';
import { RECORDED_SQL_DIR } from '../../../src/paths.js';
import { RECORDED_SQL, recordedSql } from '../../../src/store/recorded-sql.js';

/** The kinds `sql` writes as 'kind'::rm_event_kind that are not event kinds. */
function unknownKinds(sql: string): string[] {
  const kinds: readonly string[] = EVENT_KINDS;
  return [...sql.matchAll(/'([^']*)'::rm_event_kind/g)].map((m) => m[1]!).filter((kind) => !kinds.includes(kind));
}

describe('the files of sql/recorded/', () => {
  it('are the files RECORDED_SQL lists', async () => {
    const files = (await readdir(RECORDED_SQL_DIR)).filter((f) => f.endsWith('.sql')).map((f) => f.slice(0, -'.sql'.length));
    expect(files.sort()).toEqual([...RECORDED_SQL].sort());
  });

  it.each(RECORDED_SQL)('%s.sql names only kinds the reader makes', async (name) => {
    expect(unknownKinds(await recordedSql(name))).toEqual([]);
  });

  it('would catch a kind misspelt or gone from EVENT_KINDS', () => {
    expect(unknownKinds(`kind IN ('node_added'::rm_event_kind, 'node_gone'::rm_event_kind)`)).toEqual(['node_gone']);
  });

  it('write the reset end state as the timeline names it', async () => {
    for (const name of ['recorded_nodes', 'recorded_segments'] as const) {
      expect(await recordedSql(name)).toContain(`'${RM_RESET}'`);
    }
  });
});
