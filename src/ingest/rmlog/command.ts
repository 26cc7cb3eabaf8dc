// `rmreplay ingest rmlog FILES...`: the subcommand's help, options and summary.

import type { IngestCommand } from '../ingest-command.js';
import { rejectLines } from '../reject-lines.js';
import type { IngestRmLogFileResult, IngestRmLogOptions, IngestRmLogResult } from './ingest.js';

export const RMLOG_COMMAND: IngestCommand<IngestRmLogOptions, IngestRmLogResult> = {
  description:
    'load ResourceManager logs (plain or .gz; several files, a glob, rotated *.log.N in order; Hadoop 2.2 to 3.4, ' +
    'CapacityScheduler or FairScheduler) as one trace; unchanged files are skipped, grown ones read from where they stopped. ' +
    '`-` reads standard input (plain or gzip), whole every time; content the trace already holds is not stored again',
  argument: { name: '<files...>', description: 'log files or patterns such as "logs/yarn-*-resourcemanager-*.log*", or - alone for standard input' },
  options: [{ flags: '--name <name>', description: 'trace name (default: the newest file name without rotation, .gz and .log suffixes; stdin for -)' }],
  showsBytesRead: true,
  ingestFrom(files, options, onProgress, into) {
    const { name } = options as { name?: string };
    return into.ingest({ paths: files, name, onProgress });
  },
  summary(_files, result, help) {
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
    lines.push(`Check it: ${help.hint(['fidelity', '--trace', result.trace])}`);
    return lines;
  },
};

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
