// `rmreplay diagnose --trace T`: what went wrong in the cluster an RM log recorded, from the log
// alone; a table of findings, then each finding's evidence, in at most 100 columns.

import { Command } from 'commander';
import type { DiagnoseResult, Finding } from '../../api/index.js';
import { DEFAULT_DIAGNOSE_OPTIONS, noNodeRegistered } from '../../api/index.js';
import { formatTable } from '../../api/command-line.js';
import type { TableOptions } from '../../reports/index.js';
import type { CliContext } from '../context.js';
import { dbPath, print, printJson, readOptions, tableOptions, withStore } from '../context.js';
import { positiveSeconds, positiveWholeNumber } from '../options.js';

interface DiagnoseCliOptions {
  trace: string;
  heartbeats: number;
  heartbeatInterval: number;
  activationWait: number;
  storm: number;
  stormWindow: number;
  json?: boolean;
}

const WIDTH = 100;

export function diagnoseCommand(context: CliContext): Command {
  const d = DEFAULT_DIAGNOSE_OPTIONS;
  return new Command('diagnose')
    .description(
      'what went wrong in the cluster an ingested RM log recorded, from the log alone: stalls (nothing ' +
        'allocated while apps wait for containers that fit no node) and AM deadlocks among them, apps ' +
        'held back from their AM while a node had room (AM limits), reservation storms, and nodes lost ' +
        'with the containers they took down; each with its span of log time and its evidence',
    )
    .requiredOption('--trace <name>', 'an ingested RM-log trace')
    .option('--heartbeats <n>', 'report stalls that last at least this many NodeManager heartbeats', positiveWholeNumber, d.stallHeartbeats)
    .option('--heartbeat-interval <seconds>', 'the NodeManager heartbeat interval (the log does not print it)', positiveSeconds, d.heartbeatMs / 1000)
    .option('--activation-wait <seconds>', 'report apps that waited this long for their AM while a node had room', positiveSeconds, d.activationWaitMs / 1000)
    .option('--storm <n>', 'a reservation storm: at least this many new reservations in a window, and no fewer than allocations', positiveWholeNumber, d.stormReservations)
    .option('--storm-window <seconds>', 'the window reservations are counted in', positiveSeconds, d.stormWindowMs / 1000)
    .option('--json', 'print the findings as JSON')
    .addHelpText('after', '\nExit status: 0 when it ran (with or without findings), 2 on bad input (e.g. an unknown trace).')
    .action(async (options: DiagnoseCliOptions, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(context, path, (store) =>
        context.api.runDiagnose(store, {
          trace: options.trace,
          stallHeartbeats: options.heartbeats,
          heartbeatMs: options.heartbeatInterval * 1000,
          activationWaitMs: options.activationWait * 1000,
          stormReservations: options.storm,
          stormWindowMs: options.stormWindow * 1000,
        }),
        readOptions(path),
      );
      if (options.json) printJson(context, result);
      else print(context, formatDiagnosis(result, tableOptions(context)));
    });
}

/** Log time as the log writes it (its clock, read as UTC). */
function logTime(ms: number | null, withMs = false): string {
  if (ms === null) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, withMs ? 23 : 19);
}

export function formatDiagnosis(result: DiagnoseResult, options: TableOptions = {}): string {
  const o = result.options;
  const head =
    `trace ${result.trace} (${result.scheduler ?? 'scheduler unknown'}), ${logTime(result.firstMs)} to ` +
    `${logTime(result.lastMs)}: ${result.findings.length} finding(s)`;
  const lines = [head];
  if (result.findings.length === 0) {
    lines.push(
      ...wrap(
        `Nothing found: no stall of ${o.stallHeartbeats} heartbeats of ${o.heartbeatMs / 1000} s or more, no app ` +
          `waiting ${o.activationWaitMs / 1000} s or more for its AM while a node had room, no window of ` +
          `${o.stormWindowMs / 1000} s with ${o.stormReservations} or more new reservations, no node lost with containers.`,
        '',
      ),
    );
  } else {
    lines.push(
      '',
      formatTable(
        ['#', 'kind', 'start', 'duration_s', 'until'],
        result.findings.map((f, i) => [i + 1, f.kind, logTime(f.startMs), (f.endMs - f.startMs) / 1000, f.untilLogEnd ? 'log end' : '']),
        'text',
        options,
      ),
    );
    result.findings.forEach((f, i) => lines.push('', ...describe(f, i + 1)));
  }
  if (result.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const note of result.notes) lines.push(...wrap(`- ${note}`, '    ', '  '));
  }
  return lines.join('\n');
}

function describe(f: Finding, n: number): string[] {
  const span = `${n}. ${f.kind} from ${logTime(f.startMs, true)} for ${((f.endMs - f.startMs) / 1000).toFixed(1)} s` +
    (f.untilLogEnd ? ' (until the log ends)' : '');
  const out = [span, ...wrap(f.summary, '   ')];
  const add = (text: string): void => {
    out.push(...wrap(text, '   '));
  };
  switch (f.kind) {
    case 'am-deadlock':
    case 'stall': {
      const e = f.evidence;
      if (e.starvedAppCount > 0) add(`AM up, no task yet: ${list(e.starvedApps, e.starvedAppCount)}`);
      if (noNodeRegistered(e)) {
        if (e.pendingAppCount > 0) add(`waiting for an AM while no node is registered: ${list(e.pendingApps, e.pendingAppCount)}`);
        break;
      }
      if (e.pendingAppCount > 0) add(`waiting for an AM that fits no node: ${list(e.pendingApps, e.pendingAppCount)}`);
      add(
        `held: ${e.amContainers} AM container(s), ${e.amMemoryMb} MB; ${e.taskContainers} task container(s); ` +
          `${e.usedMemoryMb} of ${e.capacityMemoryMb} MB used` +
          (e.largestFreeMemoryMb === null ? '' : `; the most free on a node ${e.largestFreeMemoryMb} MB`) +
          (e.taskAskMemoryMb === null ? '' : `; a task takes ${e.taskAskMemoryMb} MB or more`),
      );
      break;
    }
    case 'activation-wait': {
      for (const app of f.evidence.apps) {
        add(
          `${app.appId}: waited ${((app.endMs - app.startMs) / 1000).toFixed(1)} s, ${(app.roomMs / 1000).toFixed(1)} s of it ` +
            `with room; ${app.activatedMs === null ? 'no activation line' : `activated after ${((app.activatedMs - app.startMs) / 1000).toFixed(1)} s`}`,
        );
      }
      break;
    }
    case 'reservation-storm': {
      const e = f.evidence;
      add(`${e.reservations} new reservation(s), ${e.reservationLines} "Making reservation" line(s), ${e.allocations} allocation(s)`);
      add(`by: ${e.apps.map((a) => `${a.appId} (${a.reservations})`).join(', ')}`);
      break;
    }
    case 'lost-node': {
      const e = f.evidence;
      const ends = Object.entries(e.endStates).map(([state, count]) => `${count} ${state}`).join(', ');
      add(`${e.containers} container(s), ${e.memoryMb} MB, ${e.amContainers} of them AMs; ended: ${ends || 'not in the log'}`);
      add(`apps: ${list(e.apps, e.apps.length)}`);
      break;
    }
  }
  return out;
}

function list(ids: readonly string[], count: number): string {
  return ids.join(', ') + (count > ids.length ? `, ... (${count} in all)` : '');
}

/** `text` in lines of at most WIDTH columns after `indent` (`firstIndent` on the first); words are never split. */
function wrap(text: string, indent: string, firstIndent = indent): string[] {
  const lines: string[] = [];
  let line = '';
  const prefix = (): string => (lines.length === 0 ? firstIndent : indent);
  for (const word of text.split(' ')) {
    if (line !== '' && prefix().length + line.length + 1 + word.length > WIDTH) {
      lines.push(prefix() + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(prefix() + line);
  return lines;
}
