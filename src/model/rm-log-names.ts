// What the name of an RM log file says: the log it is a rotation of. Log4j's appenders rotate
// `yarn-yarn-resourcemanager-host.log` into `.log.1`, `.log.2`, ... (RollingFileAppender) or
// `.log.2024-05-01` (DailyRollingFileAppender), and logs are often gzipped as they are kept.

import { basename, dirname, join } from 'node:path';

/** A log file's name without its rotation, .gz and .log (.txt, .out) suffixes. */
export function logBaseName(path: string): string {
  return basename(path)
    .replace(/\.gz$/, '')
    .replace(/\.\d+$/, '')
    .replace(/\.\d{4}-\d{2}-\d{2}(?:-\d{2})?$/, '')
    .replace(/\.(log|txt|out)$/, '');
}

/** Which log `path` is a piece of: its directory and base name (every rotation of one RM's log has the same). */
export function logOf(path: string): string {
  return join(dirname(path), logBaseName(path));
}
