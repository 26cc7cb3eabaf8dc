// `rmreplay diagnose`: its options reach the API, its table fits 100 columns, --json, --help and
// the exit statuses.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import * as api from '../../src/api/index.js';
import type { Api, CliContext } from '../../src/cli/context.js';
import { formatDiagnosis } from '../../src/cli/commands/diagnose.js';
import { main } from '../../src/cli/main.js';
import { Store } from '../../src/store/index.js';
import { AM_DEADLOCK_START_MS, amDeadlockScenario } from '../fixtures/rmlog/am-deadlock.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { tempFile, tempPath } from '../helpers/files.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.text += chunk.toString();
    callback();
  }
}

function context(overrides: Partial<Api> = {}, onDisk = false) {
  const stdout = new Capture();
  const stderr = new Capture();
  const ctx: CliContext = {
    api: { ...api, ...overrides },
    openStore: (path) => Store.open(onDisk ? path : ':memory:'),
    stdout,
    stderr,
    env: {},
  };
  return { ctx, stdout, stderr };
}

describe('rmreplay diagnose', () => {
  it('turns its options into one API call, thresholds in ms', async () => {
    let received: unknown;
    const { ctx } = context({
      runDiagnose: (_store, request) => {
        received = request;
        return api.runDiagnose(_store, { trace: 'none-such' });
      },
    });
    const code = await main(
      ['diagnose', '--trace', 't', '--heartbeats', '30', '--heartbeat-interval', '3', '--activation-wait', '120',
        '--storm', '5', '--storm-window', '30'],
      ctx,
    );
    expect(code).toBe(2);
    expect(received).toEqual({
      trace: 't', stallHeartbeats: 30, heartbeatMs: 3000, activationWaitMs: 120_000, stormReservations: 5, stormWindowMs: 30_000,
    });
  });

  it('prints the AM deadlock of the fixture in at most 100 columns, and the same as JSON', async () => {
    const db = tempPath('cli-diagnose.duckdb');
    const log = tempFile('cli-deadlock.log', renderRmLog(amDeadlockScenario(), { version: '2.8', layout: 'stock' }));
    expect(await main(['--db', db, 'ingest', 'rmlog', log, '--name', 'dl'], context({}, true).ctx)).toBe(0);

    const text = context({}, true);
    expect(await main(['--db', db, 'diagnose', '--trace', 'dl'], text.ctx)).toBe(0);
    const lines = text.stdout.text.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(lines[0]).toBe('trace dl (FairScheduler), 2024-05-01 09:59:58 to 2024-05-01 10:11:40: 1 finding(s)');
    expect(text.stdout.text).toMatch(/^1 {2}am-deadlock {2}2024-05-01 10:01:41 {7}598\.1 {2}log end$/m);
    expect(text.stdout.text).toContain('1. am-deadlock from 2024-05-01 10:01:41.900 for 598.1 s (until the log ends)');

    const json = context({}, true);
    expect(await main(['--db', db, 'diagnose', '--trace', 'dl', '--json'], json.ctx)).toBe(0);
    const result = JSON.parse(json.stdout.text) as api.DiagnoseResult;
    expect(result.findings.map((f) => [f.kind, f.startMs])).toEqual([['am-deadlock', AM_DEADLOCK_START_MS]]);
  });

  it('exits 2 with one line on an unknown trace or a bad threshold, 0 with --help', async () => {
    const unknown = context();
    expect(await main(['diagnose', '--trace', 'nope'], unknown.ctx)).toBe(2);
    expect(unknown.stderr.text).toBe("rmreplay: no trace named 'nope' in :memory:\n");
    const zero = context();
    expect(await main(['diagnose', '--trace', 'nope', '--heartbeats', '0'], zero.ctx)).toBe(2);
    expect(zero.stderr.text).toMatch(/--heartbeats <n>' argument '0' is invalid/);
    const fraction = context();
    expect(await main(['diagnose', '--trace', 'nope', '--heartbeat-interval', '0.0001'], fraction.ctx)).toBe(2);
    expect(fraction.stderr.text).toMatch(/--heartbeat-interval <seconds>' argument '0.0001' is invalid\. expected at least 0.001 s\n$/);
    expect(fraction.stderr.text.split('\n')).toHaveLength(2);
    const help = context();
    expect(await main(['diagnose', '--help'], help.ctx)).toBe(0);
    expect(help.stdout.text).toMatch(/^Usage: rmreplay diagnose/);
  });

  it('says no node is registered for a stall with no node, not what AMs hold or that an AM fits no node', () => {
    const text = formatDiagnosis({
      trace: 't', scheduler: 'CapacityScheduler', firstMs: 0, lastMs: 30_000, options: api.DEFAULT_DIAGNOSE_OPTIONS, notes: [],
      findings: [{
        kind: 'stall', startMs: 1000, endMs: 20_000, untilLogEnd: false,
        summary: 'nothing allocated for 19 s, 1 app(s) waiting; no node registered',
        evidence: {
          pendingApps: ['application_1_0001'], pendingAppCount: 1, starvedApps: [], starvedAppCount: 0,
          amContainers: 0, taskContainers: 0, amMemoryMb: 0, amVcores: 0, usedMemoryMb: 0,
          capacityMemoryMb: 0, capacityVcores: 0, amShare: null, largestFreeMemoryMb: null, taskAskMemoryMb: 1024,
        },
      }],
    });
    expect(text).toContain('waiting for an AM while no node is registered: application_1_0001');
    expect(text).not.toContain('fits no node');
    expect(text).not.toContain('0 of 0 MB used');
  });
});
