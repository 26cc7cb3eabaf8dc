import { describe, expect, it } from 'vitest';
import { markAsState } from '../../src/sim/state-fields.js';

describe('markAsState', () => {
  it('leaves every value as it was', () => {
    const node = { reservedApp: -1, reservedMemoryMb: 0, name: 'n1' };
    markAsState(node, 'reservedApp', 'reservedMemoryMb');
    expect(node).toEqual({ reservedApp: -1, reservedMemoryMb: 0, name: 'n1' });
  });

  it('refuses a name the object has no field for, rather than adding one', () => {
    const node = { reservedApp: -1 };
    expect(() => markAsState(node, 'reservedAp')).toThrow('no field reservedAp to mark');
    expect(Object.keys(node)).toEqual(['reservedApp']);
  });
});
