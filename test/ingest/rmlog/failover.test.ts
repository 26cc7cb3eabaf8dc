// An RM's HA transitions (docs/model.md 12.2): between its banners, going standby is an RM stop
// and going active again an RM start; the transitions every RM logs beside its banners, and an
// HA RM's standby as it starts, are not. Hand-written logs, read into a store.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { Store } from '../../../src/store/index.js';
import { tempFile } from '../../helpers/files.js';

const RM = 'org.apache.hadoop.yarn.server.resourcemanager.ResourceManager';
const STARS = '*'.repeat(60);

function line(time: string, logger: string, message: string): string {
  return `2024-05-01 ${time},000 INFO ${logger}: ${message}`;
}

function startup(time: string): string[] {
  return [line(time, RM, 'STARTUP_MSG: '), `/${STARS}`, 'STARTUP_MSG: Starting ResourceManager', 'STARTUP_MSG:   version = 2.8.5', `${STARS}/`];
}

function shutdown(time: string): string[] {
  return [line(time, RM, 'SHUTDOWN_MSG: '), `/${STARS}`, 'SHUTDOWN_MSG: Shutting down ResourceManager at rm/10.0.0.1', `${STARS}/`];
}

const active = (time: string) => line(time, RM, 'Transitioned to active state');
const standby = (time: string) => line(time, RM, 'Transitioned to standby state');
const registered = (time: string) =>
  line(
    time,
    'org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService',
    'NodeManager from node w1(cmPort: 45454 httpPort: 8042) registered with capability: <memory:8192, vCores:8>, assigned nodeId w1:45454',
  );

/** The RM starts and stops a log's lines come to: [time of day, kind, from, to]. */
async function startsAndStops(lines: string[]): Promise<{ changes: unknown[]; events: number; ignored: number }> {
  const store = await Store.open(':memory:');
  try {
    const path = tempFile('failover.log', `${lines.join('\n')}\n`);
    const result = await ingestRmLog(store, { paths: [path], name: 't' });
    const changes = await store.queryObjects<{ at: string; kind: string; from_state: string | null; to_state: string | null }>(
      `SELECT strftime(make_timestamp(time_ms * 1000), '%H:%M:%S') AS at, kind::VARCHAR AS kind, from_state, to_state
         FROM rmlog_events WHERE kind IN ('rm_started', 'rm_stopped') ORDER BY line_number`,
    );
    const [file] = await store.queryObjects<{ events: number; ignored: number }>(
      `SELECT events::INTEGER AS events, ignored_entries::INTEGER AS ignored FROM rmlog_files`,
    );
    expect(result.rejects).toEqual([]);
    return { changes: changes.map((c) => [c.at, c.kind, c.from_state, c.to_state]), ...file! };
  } finally {
    store.close();
  }
}

describe("an RM's HA transitions", () => {
  it('takes a standby and a later activation between banners as an RM stop and start', async () => {
    const { changes, events, ignored } = await startsAndStops([
      ...startup('10:00:00'),
      active('10:00:01'),
      registered('10:00:05'),
      standby('11:00:00'), // failover: the other RM takes over
      active('12:00:00'), // failed back
      registered('12:00:03'),
      standby('13:00:00'), // the RM's own shutdown
      ...shutdown('13:00:00'),
    ]);
    expect(changes).toEqual([
      ['10:00:00', 'rm_started', null, null],
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
      ['12:00:00', 'rm_started', 'STANDBY', 'ACTIVE'],
      ['13:00:00', 'rm_stopped', null, null],
    ]);
    // Two banners, two registrations and the failover's two transitions are events; the
    // start's own activation and the shutdown's own standby are entries of no interest.
    expect([events, ignored]).toEqual([6, 2]);
  });

  it("leaves out an HA RM's standby as it starts, before it is elected", async () => {
    const { changes } = await startsAndStops([...startup('10:00:00'), standby('10:00:01'), active('10:30:00'), registered('10:30:02')]);
    expect(changes).toEqual([['10:00:00', 'rm_started', null, null]]);
  });

  it('takes a log that ends in standby as the RM stopping there, and one that begins without a banner as it goes', async () => {
    // A rotated file: its RM started in an earlier one. It fails over, comes back, and its log ends in standby.
    const { changes } = await startsAndStops([registered('10:00:05'), standby('11:00:00'), active('12:00:00'), standby('12:30:00')]);
    expect(changes).toEqual([
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
      ['12:00:00', 'rm_started', 'STANDBY', 'ACTIVE'],
      ['12:30:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
    ]);
  });

  it('keeps a standby the SHUTDOWN banner comes long after: the RM stopped scheduling at the standby', async () => {
    const { changes } = await startsAndStops([...startup('10:00:00'), active('10:00:01'), standby('11:00:00'), ...shutdown('11:30:00')]);
    expect(changes).toEqual([
      ['10:00:00', 'rm_started', null, null],
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
      ['11:30:00', 'rm_stopped', null, null],
    ]);
  });
});
