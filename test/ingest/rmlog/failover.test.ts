// An RM's banners and HA transitions (docs/model.md 12.2): an RM starts serving when it goes
// active (an HA RM waits in standby from its banner until it is elected); between its banners,
// going standby is an RM stop and going active again an RM start; the transitions every RM logs
// beside its banners are not, and an RM never seen serving neither starts nor stops the cluster,
// so both RMs' logs of an HA pair make one trace. Hand-written logs, read into a store.

import { describe, expect, it } from 'vitest';
import { ingestRmLog } from '../../../src/api/index.js';
import { FailoverFilter } from '../../../src/ingest/rmlog/failover.js';
import type { RmEvent } from '../../../src/model/rm-events.js';
import { createRandom } from '../../../src/sim/random.js';
import { Store } from '../../../src/store/index.js';
import { clusterEvents } from '../../../src/store/rm-changes.js';
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

const clock = (timeMs: string): string => `strftime(make_timestamp(${timeMs} * 1000), '%H:%M:%S')`;

/**
 * The RM starts and stops the lines of one log, or of several read as one trace, come to: [time
 * of day, kind, from, to], and the banner's time of a start timed at its activation; and the
 * files' events and ignored entries.
 */
async function startsAndStops(...logs: string[][]): Promise<{ changes: unknown[]; cluster: unknown[]; events: number; ignored: number }> {
  const store = await Store.open(':memory:');
  try {
    const paths = logs.map((lines, i) => tempFile(`rm${i + 1}.log`, `${lines.join('\n')}\n`));
    const result = await ingestRmLog(store, { paths, name: 't' });
    const rows = async (from: string, params: Record<string, string | number> = {}) =>
      (
        await store.queryObjects<{ at: string; kind: string; from_state: string | null; to_state: string | null; banner: string | null }>(
          `SELECT ${clock('time_ms')} AS at, kind::VARCHAR AS kind, from_state, to_state,
                  ${clock("CAST(json_extract(extra, '$.bannerMs') AS BIGINT)")} AS banner
             FROM ${from} WHERE kind IN ('rm_started', 'rm_stopped') ORDER BY time_ms, file_id, line_number`,
          params,
        )
      ).map((c) => [c.at, c.kind, c.from_state, c.to_state, ...(c.banner === null ? [] : [c.banner])]);
    const changes = await rows('rmlog_events');
    // What starts and stops the cluster downstream.
    const events = await clusterEvents(store, 't');
    const cluster = await rows(events.sql, events.params);
    const [files] = await store.queryObjects<{ events: number; ignored: number }>(
      `SELECT sum(events)::INTEGER AS events, sum(ignored_entries)::INTEGER AS ignored FROM rmlog_files`,
    );
    expect(result.rejects).toEqual([]);
    return { changes, cluster, ...files! };
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

  it('starts an HA RM when it is elected, not at its banner, and keeps the banner\'s time for the start-up wait', async () => {
    // It goes standby as it starts and waits half an hour (the other RM of its pair is active).
    const { changes, events, ignored } = await startsAndStops([...startup('10:00:00'), standby('10:00:01'), active('10:30:00'), registered('10:30:02')]);
    expect(changes).toEqual([['10:30:00', 'rm_started', null, null, '10:00:00']]);
    // The banner and the registration; its standby and its activation are the banner's own.
    expect([events, ignored]).toEqual([2, 2]);
  });

  it('takes the first line only an active RM writes as its activation when the log shows none', async () => {
    const { changes } = await startsAndStops([...startup('10:00:00'), standby('10:00:01'), registered('10:20:00'), active('10:30:00')]);
    expect(changes).toEqual([['10:20:00', 'rm_started', null, null, '10:00:00']]);
  });

  it('neither starts nor stops the cluster with an RM that never served', async () => {
    // The standby of a pair: started, restarted, shut down, never elected.
    const { changes, events, ignored } = await startsAndStops([
      ...startup('10:00:00'),
      standby('10:00:01'),
      ...startup('11:00:00'),
      standby('11:00:01'),
      standby('12:00:00'),
      ...shutdown('12:00:00'),
    ]);
    expect(changes).toEqual([]);
    expect([events, ignored]).toEqual([0, 6]);
  });

  it('reads both RMs of an HA pair as one trace: only the active one starts and stops the cluster', async () => {
    const rm1 = [...startup('10:00:00'), standby('10:00:01'), active('10:00:03'), registered('10:00:05'), standby('11:00:00')];
    // rm2 starts while rm1 is active, is elected when rm1 goes standby, and is shut down later.
    const rm2 = [...startup('10:00:30'), standby('10:00:31'), active('11:00:02'), registered('11:00:04'), standby('12:00:00'), ...shutdown('12:00:01')];
    const { changes } = await startsAndStops(rm1, rm2);
    expect(changes).toEqual([
      ['10:00:03', 'rm_started', null, null, '10:00:00'],
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
      ['11:00:02', 'rm_started', null, null, '10:00:30'],
      ['12:00:01', 'rm_stopped', null, null],
    ]);
  });

  it("leaves out the standby an HA pair's old RM logs after the other was elected", async () => {
    // rm1 loses its ZooKeeper lock; rm2 is elected at 11:00:02, and rm1 goes standby only at
    // 11:00:05, when its state store refuses it. Its instance ended at rm2's start.
    const rm1 = [...startup('10:00:00'), standby('10:00:01'), active('10:00:03'), registered('10:00:05'), standby('11:00:05')];
    const rm2 = [...startup('10:00:30'), standby('10:00:31'), active('11:00:02'), registered('11:00:04')];
    const { changes, cluster } = await startsAndStops(rm1, rm2);
    expect(changes).toEqual([
      ['10:00:03', 'rm_started', null, null, '10:00:00'],
      ['11:00:02', 'rm_started', null, null, '10:00:30'],
      ['11:00:05', 'rm_stopped', 'ACTIVE', 'STANDBY'],
    ]);
    expect(cluster).toEqual(changes.slice(0, 2));
  });

  it("keeps the standby of one RM whose log is split over files named as no rotation is", async () => {
    // rm1.log and rm2.log here are one RM's log, cut in two: nothing started after its start.
    const { changes, cluster } = await startsAndStops(
      [...startup('10:00:00'), active('10:00:01'), registered('10:00:05')],
      [registered('10:30:00'), standby('11:00:00'), active('11:30:00')],
    );
    expect(changes).toEqual([
      ['10:00:00', 'rm_started', null, null],
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
      ['11:30:00', 'rm_started', 'STANDBY', 'ACTIVE'],
    ]);
    expect(cluster).toEqual(changes);
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

  it('keeps a standby the SHUTDOWN banner comes long after: the RM stopped scheduling at the standby, not again at the banner', async () => {
    const { changes, events, ignored } = await startsAndStops([...startup('10:00:00'), active('10:00:01'), standby('11:00:00'), ...shutdown('11:30:00')]);
    expect(changes).toEqual([
      ['10:00:00', 'rm_started', null, null],
      ['11:00:00', 'rm_stopped', 'ACTIVE', 'STANDBY'],
    ]);
    expect([events, ignored]).toEqual([2, 2]);
  });

  it('accounts for every line it is given, whatever their order: each emitted or counted as of no interest once', () => {
    // Random runs of banners, HA transitions and other events (seeded): what the file's counts
    // (events + ignored entries) rely on, and no stop emitted right after another.
    const random = createRandom(7);
    const make = (kind: RmEvent['kind'], timeMs: number, fromState: string | null = null, toState: string | null = null): RmEvent => ({
      kind, lineNumber: timeMs, timeMs, subject: null, nodeId: null, fromState, toState, memoryMb: null, vcores: null, priority: null,
      queue: null, user: null, detail: null, extra: null,
    });
    for (let run = 0; run < 200; run++) {
      const emitted: RmEvent[] = [];
      let ignored = 0;
      const filter = new FailoverFilter({ emit: (e) => emitted.push(e), ignore: () => ignored++ });
      let given = 0;
      for (let t = 0; t < 40; t++) {
        const timeMs = t * 30_000;
        const roll = random.nextInt(6);
        if (roll === 5) {
          const e = make(random.nextInt(2) === 0 ? 'node_registered' : 'scheduler_config', timeMs);
          if (filter.holding) filter.beforeEvent(e);
          emitted.push(e);
        } else {
          filter.change(
            [make('rm_started', timeMs), make('rm_stopped', timeMs), make('rm_started', timeMs, 'STANDBY', 'ACTIVE'), make('rm_stopped', timeMs, 'ACTIVE', 'STANDBY'), make('rm_stopped', timeMs, 'ACTIVE', 'STANDBY')][roll]!,
          );
        }
        given++;
      }
      filter.finish();
      expect(emitted.length + ignored).toBe(given);
      const changes = emitted.filter((e) => e.kind === 'rm_started' || e.kind === 'rm_stopped');
      changes.forEach((e, i) => {
        if (i > 0 && e.kind === 'rm_stopped') expect(changes[i - 1]!.kind, `run ${run}`).toBe('rm_started');
      });
    }
  });
});
