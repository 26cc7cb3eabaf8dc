// What a file that holds no ResourceManager event is, told from a few robust signs in its first
// lines, so that the user hears "this looks like a NodeManager log" rather than "0 apps".

import type { RmLogFileStats } from './reader.js';
import { isBinary } from './reader.js';

/** Logger classes only a NodeManager writes (its package, its main services). */
const NODE_MANAGER = /org\.apache\.hadoop\.yarn\.server\.nodemanager\.|\b(?:NodeStatusUpdaterImpl|ContainerManagerImpl|NodeManager):/;
/** A SWIM row: job id, submit time, gap, then three byte counts, tab-separated. */
const SWIM_COLUMNS = 6;

/**
 * What the file looks like, as the end of a sentence ("this looks like a NodeManager log"),
 * from the lines a read kept (RmLogFileStats.headLines) and its counts.
 */
export function lookOfFile(stats: Pick<RmLogFileStats, 'lines' | 'entries' | 'headLines'>): string {
  const lines = stats.headLines.filter((line) => line.trim() !== '');
  if (stats.lines === 0 || lines.length === 0) return 'it is empty';
  if (lines.some((line) => isBinary(line, 0, line.length))) return 'it is not text';
  if (lines.some((line) => NODE_MANAGER.test(line))) return 'this looks like a NodeManager log';
  const swimRows = lines.filter((line) => line.split('\t').length >= SWIM_COLUMNS).length;
  if (swimRows * 2 > lines.length) return 'this looks like a SWIM trace (read it with `ingest swim`)';
  if (stats.entries > 0) return 'its log entries are from classes other than the ResourceManager\'s';
  return 'no line is a log entry of a layout rmreplay reads (docs/log-formats.md)';
}

/** The refusal of a file with no RM events: one line, every line of it accounted for. */
export function notAnRmLogMessage(path: string, stats: Omit<RmLogFileStats, 'head'>): string {
  if (stats.lines === 0) return `${path} is not a ResourceManager log: it is empty; not stored`;
  const counted =
    `${stats.lines} line${stats.lines === 1 ? '' : 's'}: ${stats.entries} log entries (${stats.ignoredEntries} of no interest), ` +
    `${stats.continuationLines} continuation lines, ${stats.rejectedLines} rejected`;
  return `${path} is not a ResourceManager log: no RM entries in ${counted}; ${lookOfFile(stats)}; not stored`;
}
