// A one-line progress display on stderr, shown only when stderr is a terminal.

import type { ReplayProgress } from '../model/replay-result.js';
import type { CliContext } from './context.js';

export interface ProgressDisplay {
  readonly onProgress: ((policy: string, progress: ReplayProgress) => void) | undefined;
  done(): void;
}

export function replayProgress(context: CliContext): ProgressDisplay {
  const stream = context.stderr;
  if (!stream.isTTY) return { onProgress: undefined, done: () => {} };
  let shown = false;
  return {
    onProgress: (policy, p) => {
      shown = true;
      const simulatedS = Math.round(p.simulatedMs / 1000);
      stream.write(
        `\r\x1b[K${policy}: ${p.appsEnded}/${p.appsTotal} apps ended, ${simulatedS} s simulated, ${p.events} events`,
      );
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

/** Bytes read of the file being ingested, on one line of stderr when it is a terminal. */
export function bytesProgress(context: CliContext): {
  readonly onProgress: ((path: string, bytesRead: number, bytes: number) => void) | undefined;
  done(): void;
} {
  const stream = context.stderr;
  if (!stream.isTTY) return { onProgress: undefined, done: () => {} };
  let shown = false;
  let lastPercent = -1;
  return {
    onProgress: (path, bytesRead, bytes) => {
      const percent = bytes > 0 ? Math.floor((100 * bytesRead) / bytes) : 100;
      if (percent === lastPercent) return;
      lastPercent = percent;
      shown = true;
      stream.write(`\r\x1b[K${path}: ${percent}% (${(bytesRead / 1e6).toFixed(0)} of ${(bytes / 1e6).toFixed(0)} MB)`);
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
