// What a scheduler asks of the engine before the engine is whole is held and passed on once,
// merged; after that every call goes straight through.

import { describe, expect, it } from 'vitest';
import { SchedulerCalls } from '../../src/replay/scheduler-calls.js';
import type { SchedulerListener } from '../../src/policies/scheduling/index.js';

function recorder(): { listener: SchedulerListener; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    listener: {
      demandAdded: () => calls.push('demand'),
      limitsLoosened: () => calls.push('loosened'),
      updateAt: (timeMs) => calls.push(`update ${timeMs}`),
    },
  };
}

describe('SchedulerCalls', () => {
  it('holds calls until opened, keeps the earliest update, then passes every call on', () => {
    const held = new SchedulerCalls();
    held.updateAt(1000);
    held.limitsLoosened();
    held.updateAt(500);
    held.limitsLoosened();
    held.demandAdded();
    const { listener, calls } = recorder();
    held.open(listener);
    expect(calls).toEqual(['update 500', 'demand', 'loosened']);
    held.updateAt(1500);
    held.limitsLoosened();
    expect(calls).toEqual(['update 500', 'demand', 'loosened', 'update 1500', 'loosened']);
    expect(() => held.open(listener)).toThrow(/opened twice/);
  });

  it('passes nothing on when nothing was asked', () => {
    const { listener, calls } = recorder();
    new SchedulerCalls().open(listener);
    expect(calls).toEqual([]);
  });
});
