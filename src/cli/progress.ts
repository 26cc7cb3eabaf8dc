// A one-line progress display on stderr, shown only when stderr is a terminal.

import type { SweepProgress } from '../api/index.js';
import type { ReplayProgress } from '../model/replay-result.js';
import type { CliContext } from './context.js';

/** A progress callback for the API (absent when nothing is shown) and the call that clears the line. */
export interface ProgressDisplay<Args extends unknown[]> {
  readonly onProgress: ((...args: Args) => void) | undefined;
  done(): void;
}

/** Rewrite one line of stderr with `describe(...)` on each call, when stderr is a terminal. */
function statusLine<Args extends unknown[]>(context: CliContext, describe: (...args: Args) => string | null): ProgressDisplay<Args> {
  const stream = context.stderr;
  if (!stream.isTTY) return { onProgress: undefined, done: () => {} };
  let shown = false;
  return {
    onProgress: (...args) => {
      const text = describe(...args);
      if (text === null) return;
      shown = true;
      stream.write(`\r\x1b[K${text}`);
    },
    done: () => {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}

export function replayProgress(context: CliContext): ProgressDisplay<[policy: string, progress: ReplayProgress]> {
  return statusLine(context, (policy: string, p: ReplayProgress) => {
    const simulatedS = Math.round(p.simulatedMs / 1000);
    return `${policy}: ${p.appsEnded}/${p.appsTotal} apps ended, ${simulatedS} s simulated, ${p.events} events`;
  });
}

/** A sweep's runs done of those it has to replay, with the rate and the time left. */
export function sweepProgress(context: CliContext): ProgressDisplay<[progress: SweepProgress]> {
  return statusLine(context, (p: SweepProgress) => {
    const toRun = p.total - p.skipped;
    const rate = p.done > 0 ? p.done / (p.elapsedMs / 1000) : 0;
    const eta = rate > 0 ? `, ETA ${formatDuration((toRun - p.done) / rate)}` : '';
    const failed = p.failed > 0 ? `, ${p.failed} failed` : '';
    const skipped = p.skipped > 0 ? ` (${p.skipped} stored before)` : '';
    const queue = p.queue ? `, ${p.queue.running} running${p.queue.reachable ? '' : ', QUEUE NOT ANSWERING'}` : '';
    return `sweep: ${p.done}/${toRun} runs${skipped}${failed}${queue}, ${rate.toFixed(1)} runs/s${eta}`;
  });
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** Bytes read of the file being ingested; the line changes once per percent. */
export function bytesProgress(context: CliContext): ProgressDisplay<[path: string, bytesRead: number, bytes: number]> {
  let lastPercent = -1;
  return statusLine(context, (path: string, bytesRead: number, bytes: number) => {
    const percent = bytes > 0 ? Math.floor((100 * bytesRead) / bytes) : 100;
    if (percent === lastPercent) return null;
    lastPercent = percent;
    return `${path}: ${percent}% (${(bytesRead / 1e6).toFixed(0)} of ${(bytes / 1e6).toFixed(0)} MB)`;
  });
}
