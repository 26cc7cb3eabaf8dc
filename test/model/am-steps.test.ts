// When an AM that acts only on its own steps asks (SLS's simulated AM), by hand.

import { describe, expect, it } from 'vitest';
import { amStepAskMs } from '../../src/model/am-steps.js';

describe('amStepAskMs', () => {
  it('is the second AM step at or after the news, steps every period from the anchor', () => {
    // Submitted at 500: steps at 1500, 2500, 3500. A container allocated at 1200 is pulled at
    // 1500 and seen at 2500; one allocated at exactly 1500 is pulled at 1500 too (the step's
    // allocate call returns it); at 1501 it waits for 2500 and is seen at 3500. News before the
    // first step (at 600) is pulled by that first step, 1500, and acted on at 2500.
    expect(amStepAskMs(500, 1200, 1000)).toBe(2500);
    expect(amStepAskMs(500, 1500, 1000)).toBe(2500);
    expect(amStepAskMs(500, 1501, 1000)).toBe(3500);
    expect(amStepAskMs(500, 600, 1000)).toBe(2500);
    // A task ended at 13 000, steps from 300: pulled at 13 300, acted on at 14 300.
    expect(amStepAskMs(300, 13_000, 1000)).toBe(14_300);
  });
});
