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
