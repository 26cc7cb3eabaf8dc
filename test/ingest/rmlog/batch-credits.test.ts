// A parser worker's batches count against its CREDITS_AHEAD as what they hold: a small file's
// batch of a few rows as those rows (a batch each made a worker of small files spool after 32
// files), a batch of rejects only as their text, an empty one (progress only) as one.

import { describe, expect, it } from 'vitest';
import { REJECT_TEXT_LIMIT_CHARS, RM_EVENT_BATCH_ROWS } from '../../../src/model/rm-event-batch.js';
import { CREDITS_AHEAD, creditsOf } from '../../../src/ingest/rmlog/parse-protocol.js';

const reject = (rawText: string): { lineNumber: number; reason: string; rawText: string } => ({ lineNumber: 1, reason: 'r', rawText });

describe('batch credits', () => {
  it('count a small batch as its rows, so that many small files\' batches fit where 32 batches did', () => {
    expect(creditsOf({ rows: 4, rejects: [] })).toBe(4);
    expect(creditsOf({ rows: RM_EVENT_BATCH_ROWS, rejects: [] })).toBe(RM_EVENT_BATCH_ROWS);
    // 32 full batches, as before; 33 small files of 4 rows each are far under.
    expect(CREDITS_AHEAD).toBe(32 * RM_EVENT_BATCH_ROWS);
    expect(33 * creditsOf({ rows: 4, rejects: [] })).toBeLessThan(CREDITS_AHEAD);
  });

  it('count rejects by their text (a batch closed at the reject text limit as a full one) and an empty batch as one', () => {
    // 2 rows and two rejects of 2047 + 1 characters (text and reason): 4096 characters, 2048 to a credit.
    expect(creditsOf({ rows: 2, rejects: [reject('x'.repeat(2047)), reject('x'.repeat(2047))] })).toBe(2 + 2);
    expect(creditsOf({ rows: 2, rejects: [reject('x'.repeat(2047)), reject('')] })).toBe(2 + 2);
    expect(creditsOf({ rows: 0, rejects: [reject('x'.repeat(REJECT_TEXT_LIMIT_CHARS - 1))] })).toBe(RM_EVENT_BATCH_ROWS);
    expect(creditsOf({ rows: 0, rejects: [] })).toBe(1);
  });
});
