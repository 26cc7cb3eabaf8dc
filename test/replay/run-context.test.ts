// The run context's table of event handlers: each kind goes to the handler its part registered,
// at the event's time, and a kind is registered once.

import { describe, expect, it } from 'vitest';
import { APP_TIMEOUT, CONTROL_STEP, SCHEDULER_UPDATE, updateEvent } from '../../src/replay/events.js';
import type { Event } from '../../src/replay/events.js';
import { RunContext } from '../../src/replay/run-context.js';

function contextSeeing(seen: string[]): RunContext {
  const ctx: RunContext = new RunContext((event, nowMs) => ctx.dispatch(event, nowMs), 16);
  ctx.on(SCHEDULER_UPDATE, (_event, nowMs) => seen.push(`update@${nowMs}/${ctx.nowMs}`));
  ctx.on(CONTROL_STEP, (_event, nowMs) => seen.push(`step@${nowMs}/${ctx.nowMs}`));
  return ctx;
}

describe('run context handlers', () => {
  it('hand each event to its kind handler, with the clock at its time', () => {
    // Queued: a control step at 30 ms, an update at 10, a control step and an update at 20. At
    // 20 ms the update goes first: SCHEDULER_UPDATE and CONTROL_STEP share priority 2, so the
    // order queued decides, and the update was queued first.
    const seen: string[] = [];
    const ctx = contextSeeing(seen);
    ctx.schedule(30, updateEvent(CONTROL_STEP));
    ctx.schedule(10, updateEvent(SCHEDULER_UPDATE));
    ctx.schedule(20, updateEvent(SCHEDULER_UPDATE));
    ctx.schedule(20, updateEvent(CONTROL_STEP));
    const outcome = ctx.run(undefined, () => {});
    expect(seen).toEqual(['update@10/10', 'update@20/20', 'step@20/20', 'step@30/30']);
    expect(outcome.events).toBe(4);
  });

  it('refuse a second handler for a kind', () => {
    const ctx = contextSeeing([]);
    expect(() => ctx.on(CONTROL_STEP, () => {})).toThrow('event kind 9 already has a handler');
  });

  it('refuse an event of a kind no part handles', () => {
    const ctx = contextSeeing([]);
    ctx.schedule(5, { kind: APP_TIMEOUT } as Event);
    expect(() => ctx.run(undefined, () => {})).toThrow('no handler for event kind 8');
  });
});
