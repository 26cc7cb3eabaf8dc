// The run context's table of event handlers: each kind goes to the handler its part registered,
// at the event's time, and a kind is registered once. The container's end, dispatched from a
// call site of its own, is held to the same rules.

import { describe, expect, it } from 'vitest';
import { APP_TIMEOUT, CONTROL_STEP, NODE_CHANGE, SCHEDULER_UPDATE, updateEvent } from '../../src/replay/events.js';
import type { Event } from '../../src/replay/events.js';
import { RunContext } from '../../src/replay/run-context.js';
import { CONTAINER_DONE } from '../../src/replay/state.js';

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

  it('run the container end and the other kinds at one instant in priority, then queued, order', () => {
    // All at 20 ms, queued in this order: a control step (priority 2), a container's end (1), a
    // node change (0), a scheduler update (2), a second container's end (1). The kernel orders
    // by priority, then by queueing: node change; the two ends as queued; step before update.
    // The ends carry their number so the order between them shows.
    const seen: string[] = [];
    const ctx = contextSeeing(seen);
    ctx.on(CONTAINER_DONE, (event, nowMs) => seen.push(`end ${(event as unknown as { id: number }).id}@${nowMs}`));
    ctx.on(NODE_CHANGE, (_event, nowMs) => seen.push(`change@${nowMs}`));
    ctx.schedule(20, updateEvent(CONTROL_STEP));
    ctx.schedule(20, { kind: CONTAINER_DONE, id: 1 } as unknown as Event);
    ctx.schedule(20, updateEvent(NODE_CHANGE));
    ctx.schedule(20, updateEvent(SCHEDULER_UPDATE));
    ctx.schedule(20, { kind: CONTAINER_DONE, id: 2 } as unknown as Event);
    ctx.run(undefined, () => {});
    expect(seen).toEqual(['change@20', 'end 1@20', 'end 2@20', 'step@20/20', 'update@20/20']);
  });

  it('refuse a container end no part handles, and a second handler for it', () => {
    const ctx = contextSeeing([]);
    ctx.schedule(5, { kind: CONTAINER_DONE } as Event);
    expect(() => ctx.run(undefined, () => {})).toThrow('no handler for event kind 0');
    ctx.on(CONTAINER_DONE, () => {});
    expect(() => ctx.on(CONTAINER_DONE, () => {})).toThrow('event kind 0 already has a handler');
  });
});
