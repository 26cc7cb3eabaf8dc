import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/sim/simulation.js';

describe('Simulation', () => {
  it('advances the clock to each event and lets handlers schedule more', () => {
    const seen: [string, number][] = [];
    const sim: Simulation<string> = new Simulation<string>((payload, now) => {
      seen.push([payload, now]);
      if (payload === 'start') sim.at(now + 5, 0, 'later');
    });
    sim.at(10, 0, 'start');
    const outcome = sim.run();
    expect(seen).toEqual([
      ['start', 10],
      ['later', 15],
    ]);
    expect(outcome).toEqual({ endMs: 15, events: 2, stoppedAtHorizon: false });
  });

  it('reports each advance of the clock once, before the later event runs', () => {
    const advances: [number, number][] = [];
    const sim = new Simulation<string>(() => {});
    sim.at(0, 0, 'a');
    sim.at(0, 0, 'b');
    sim.at(7, 0, 'c');
    sim.run({ onAdvance: (from, to) => advances.push([from, to]) });
    expect(advances).toEqual([[0, 7]]);
  });

  it('stops at the horizon, running events at exactly that time', () => {
    const seen: number[] = [];
    const sim = new Simulation<number>((p) => seen.push(p));
    for (const t of [1, 5, 6]) sim.at(t, 0, t);
    const outcome = sim.run({ untilMs: 5 });
    expect(seen).toEqual([1, 5]);
    expect(outcome).toEqual({ endMs: 5, events: 2, stoppedAtHorizon: true });
  });

  it('refuses to schedule in the past', () => {
    const sim: Simulation<string> = new Simulation<string>((_p, now) => {
      expect(() => sim.at(now - 1, 0, 'past')).toThrow(/before the clock/);
    });
    sim.at(3, 0, 'x');
    sim.run();
  });

  it('lets a handler advance the clock to a step before the next queued event', () => {
    // The handler at 1 works at 2 and 3 itself (sampling sees both advances), but may not pass
    // the event queued at 4, nor reach it.
    const advances: [number, number][] = [];
    const sim: Simulation<string> = new Simulation<string>((p) => {
      if (p !== 'start') return;
      sim.advanceTo(2);
      sim.advanceTo(3);
      expect(() => sim.advanceTo(4)).toThrow(/cannot advance to 4 ms/);
    });
    sim.at(1, 0, 'start');
    sim.at(4, 0, 'later');
    const outcome = sim.run({ onAdvance: (from, to) => advances.push([from, to]) });
    expect(advances).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 4],
    ]);
    expect(outcome.events).toBe(4);
  });
});
