// `rmreplay ingest swim FILE` and `rmreplay ingest rmlog FILES...`: load a trace into the database.

import { Command } from 'commander';
import type { IngestRmLogFileResult, RejectRow } from '../../api/index.js';
import type { CliContext } from '../context.js';
import { dbPath, hint, print, printJson, withStore } from '../context.js';
import { nodeCountOption } from '../options.js';
import { bytesProgress } from '../progress.js';

const SHOWN_REJECTS = 10;

export function ingestCommand(context: CliContext): Command {
  const ingest = new Command('ingest').description('load a trace into the database');
  ingest
    .command('swim')
    .description(
      'load a SWIM workload file (six tab-separated columns: job id, submit s, gap s, map input, shuffle, ' +
        'reduce output bytes); the same content again is a no-op, bad lines are kept with their reason',
    )
    .argument('<file>', 'SWIM .tsv file (plain or .gz), or - for standard input')
    .option('--name <name>', 'trace name for `replay --trace` (default: the file name without extension)')
    .option('--source-nodes <n>', 'machines in the cluster the trace was sampled from (default: 600 for FB-2009, 3000 for FB-2010)', nodeCountOption)
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: { name?: string; sourceNodes?: number; json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const result = await withStore(context, path, (store) =>
        context.api.ingestSwim(store, { path: file, name: options.name, sourceNodes: options.sourceNodes }),
      );
      if (options.json) {
        printJson(context, result);
        return;
      }
      const t = result.trace;
      const verb =
        result.status === 'unchanged'
          ? `already ingested as trace ${t.trace}; nothing changed`
          : `${result.status} as trace ${t.trace}`;
      const lines = [
        `${file}: ${verb}`,
        `  ${t.jobs} jobs from ${t.lines} lines (${t.blankLines} blank, ${t.rejectedLines} rejected); ` +
          `source cluster ${t.sourceNodes ?? '?'} nodes`,
        `  at source scale SWIM runs ${result.sourceScaleMaps} maps and ${result.sourceScaleReduces} reduces (64 MB blocks)`,
        ...result.warnings.map((warning) => `  warning: ${warning}`),
      ];
      lines.push(...rejectLines(result.rejects, t.rejectedLines));
      // A SWIM trace needs a cluster: the shipped one nearest its source's size (any cluster file will do).
      const cluster = await context.api.nearestShippedCluster(t.sourceNodes ?? null);
      lines.push(`Replay it (on the shipped cluster ${cluster}, or --cluster YOUR_FILE): ${hint(context, ['replay', '--trace', t.trace, '--cluster', cluster])}`);
      print(context, lines.join('\n'));
    });
  ingest
    .command('rmlog')
    .description(
      'load ResourceManager logs (plain or .gz; several files, a glob, rotated *.log.N in order; Hadoop 2.2 to 3.4, ' +
        'CapacityScheduler or FairScheduler) as one trace; unchanged files are skipped, grown ones read from where they stopped. ' +
        '`-` reads standard input (plain or gzip), whole every time; content the trace already holds is not stored again',
    )
    .argument('<files...>', 'log files or patterns such as "logs/yarn-*-resourcemanager-*.log*", or - alone for standard input')
    .option('--name <name>', 'trace name (default: the newest file name without rotation, .gz and .log suffixes; stdin for -)')
    .option('--json', 'print the result as JSON')
    .action(async (files: string[], options: { name?: string; json?: boolean }, command: Command) => {
      const path = dbPath(context, command);
      const progress = bytesProgress(context);
      const result = await withStore(context, path, (store) =>
        context.api.ingestRmLog(store, { paths: files, name: options.name, onProgress: progress.onProgress }),
      );
      progress.done();
      if (options.json) {
        printJson(context, result);
        return;
      }
      const lines = [`trace ${result.trace}: ${result.apps} apps submitted, ${result.containers} containers, ${result.nodes} nodes`];
      for (const f of result.files) {
        const detail =
          f.status === 'unchanged'
            ? 'unchanged since the last ingest'
            : `${f.status}: ${f.linesRead} lines read, ${f.eventsRead} events, ${f.rejectedRead} rejected`;
        lines.push(
          `  ${f.path}: ${detail}; Hadoop ${f.hadoopVersion ?? 'version unknown'}` +
            `${f.versionSource === 'line formats' ? ' (from line formats)' : ''}, ${f.scheduler ?? 'scheduler unknown'}, ${f.layout ?? '?'} layout`,
        );
        if (f.streamError) lines.push(`    warning: ${f.streamError}; the lines before it were kept`);
        lines.push(...backwardsLines(f));
        if (f.nulPrefixedLines > 0) {
          lines.push(
            `    note: ${f.nulPrefixedLines} line(s) began with NUL bytes (${f.nulBytesStripped} in all, as a log copied off a crashed ` +
              `machine has): stripped, and the rest of each line read (rmlog_files.nul_prefixed_lines)`,
          );
        }
      }
      lines.push(...rejectLines(result.rejects, result.rejectedLines));
      const { readMs, samplesMs } = result.timing;
      lines.push(
        `  read and stored in ${seconds(readMs)}` + (samplesMs > 0 ? `; the recorded cluster sampled (rm_samples) in ${seconds(samplesMs)}` : ''),
      );
      lines.push(`Check it: ${hint(context, ['fidelity', '--trace', result.trace])}`);
      print(context, lines.join('\n'));
    });
  return ingest;
}

/** A duration for people: `0.85 s`, `12.3 s`. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/**
 * A file whose clock went back: how many entries, and the first few read now, one line each
 * (times as the log writes them).
 */
function backwardsLines(file: IngestRmLogFileResult): string[] {
  const count = file.backwardsTimestamps;
  if (count === 0) return [];
  const logTime = (ms: number): string => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');
  const shown = file.backwardsTimestampExamples;
  return [
    `    warning: ${count} entr${count === 1 ? 'y is' : 'ies are'} timed earlier than the entry before ${count === 1 ? 'it' : 'them'}` +
      ` (the log's clock went back; rmlog_files.backwards_timestamps)${shown.length > 0 ? ', the first:' : ''}`,
    ...shown.map((b) => `      line ${b.lineNumber}: ${logTime(b.timeMs)}, after ${logTime(b.previousTimeMs)}`),
  ];
}

/** The first rejects, and how many more the table holds (`total` of them in all). */
function rejectLines(rejects: readonly RejectRow[], total: number): string[] {
  const shown = rejects.slice(0, SHOWN_REJECTS);
  const lines = shown.map((reject) => `  rejected line ${reject.lineNumber}: ${reject.reason}`);
  if (total > shown.length) lines.push(`  ... and ${total - shown.length} more in table ingest_rejects`);
  return lines;
}
