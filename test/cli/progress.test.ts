import { describe, expect, it } from 'vitest';
import { bytesProgress, replayProgress } from '../../src/cli/progress.js';
import type { CliContext } from '../../src/cli/context.js';

function terminal(isTTY: boolean): { context: CliContext; written: () => string } {
  let text = '';
  const stderr = { isTTY, write: (chunk: string) => ((text += chunk), true) } as unknown as CliContext['stderr'];
  return { context: { stderr } as CliContext, written: () => text };
}

describe('progress on stderr', () => {
  it('rewrites one line per whole percent read and clears it at the end', () => {
    const { context, written } = terminal(true);
    const progress = bytesProgress(context);
    progress.onProgress!('a.log', 10e6, 100e6);
    progress.onProgress!('a.log', 10.5e6, 100e6); // still 10 %: not shown again
    progress.onProgress!('a.log', 20e6, 100e6);
    progress.done();
    expect(written()).toBe('\r\x1b[Ka.log: 10% (10 of 100 MB)\r\x1b[Ka.log: 20% (20 of 100 MB)\r\x1b[K');
  });

  it('shows a replay as apps ended, simulated seconds and events', () => {
    const { context, written } = terminal(true);
    const progress = replayProgress(context);
    progress.onProgress!('reserve:8', { simulatedMs: 12_345, appsEnded: 3, appsTotal: 9, events: 77 });
    progress.done();
    expect(written()).toBe('\r\x1b[Kreserve:8: 3/9 apps ended, 12 s simulated, 77 events\r\x1b[K');
  });

  it('asks for no progress and writes nothing when stderr is not a terminal', () => {
    const { context, written } = terminal(false);
    const progress = bytesProgress(context);
    expect(progress.onProgress).toBeUndefined();
    progress.done();
    expect(replayProgress(context).onProgress).toBeUndefined();
    expect(written()).toBe('');
  });
});
