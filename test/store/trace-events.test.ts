// How SQL reads a trace's events: kinds compared as the stored ENUM (kindIs), prefixes as ranges
// (withPrefix), on a hand-made log whose lines are counted by hand.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../src/api/index.js';
import { useTraceEvents } from '../../src/store/recorded-sql.js';
import { boundValues, kindIs, traceEvents, wholeNumber, withPrefix } from '../../src/store/trace-events.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';
import { tempFile } from '../helpers/files.js';
import { withStore } from '../helpers/store.js';

describe('trace events', () => {
  it('kindIs selects the lines of its kinds, compared as the ENUM (no kind cast to text per row)', async () => {
    const path = tempFile('small-cs.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: 'small' });
      const count = async (where: string): Promise<number> =>
        Number((await store.query(`SELECT count(*) FROM rmlog_events WHERE ${where}`)).rows[0]![0]);
      // smallScenario: 3 nodes register, 2 stay (worker02 is removed); 3 apps, each accepted once.
      expect(await count(kindIs('node_registered'))).toBe(3);
      expect(await count(kindIs('app_accepted'))).toBe(3);
      expect(await count(kindIs('node_registered', 'app_accepted'))).toBe(6);
      expect(await count(`NOT ${kindIs('node_registered', 'app_accepted')}`)).toBe((await count('true')) - 6);
      const plan = async (where: string): Promise<string> =>
        (await store.query(`EXPLAIN SELECT count(*) FROM rmlog_events WHERE ${where}`)).rows.map((r) => String(r[1])).join('\n');
      expect(await plan(`kind = 'app_accepted'`)).toMatch(/CAST\(kind AS VARCHAR\)/);
      expect(await plan(kindIs('app_accepted'))).not.toMatch(/CAST\(kind AS VARCHAR\)/);
      expect(await count(withPrefix('subject', 'application_'))).toBe(await count(`starts_with(subject, 'application_')`));
    });
  });

  it('kindIs refuses an empty list (SQL `kind IN ()` is no test at all)', () => {
    expect(() => kindIs()).toThrow(/at least one kind/);
  });

  it('the view trace_events holds the rows the bound subquery selects, the values written in', async () => {
    const path = tempFile('small-cs-view.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }));
    await withStore(async (store) => {
      await ingestRmLog(store, { paths: [path], name: "o'brien" });
      await ingestRmLog(store, { paths: [path], name: 'other' });
      const events = await traceEvents(store, "o'brien");
      const bound = await store.query(`SELECT count(*), sum(line_number) FROM ${events.sql}`, boundValues(events.sql, events));
      await useTraceEvents(store, events);
      const viewed = await store.query('SELECT count(*), sum(line_number) FROM trace_events');
      expect(Number(bound.rows[0]![0])).toBeGreaterThan(0);
      expect(viewed.rows).toEqual(bound.rows);
      // The other trace's file is not in the view.
      expect(Number((await store.query('SELECT count(*) FROM rmlog_events')).rows[0]![0])).toBe(2 * Number(bound.rows[0]![0]));
    });
  });

  it('writes only whole numbers into SQL text', () => {
    expect(wholeNumber(42)).toBe('42');
    expect(wholeNumber('-7')).toBe('-7');
    expect(() => wholeNumber('1) OR (1=1')).toThrow(/not a whole number/);
    expect(() => wholeNumber(1.5)).toThrow(/not a whole number/);
  });
});
