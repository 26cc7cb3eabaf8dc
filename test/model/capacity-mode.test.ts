import { describe, expect, it } from 'vitest';
import { capacityModeSpec, CapacityModeError, capacityModeUsage, parseCapacityMode } from '../../src/model/capacity-mode.js';

describe('parseCapacityMode', () => {
  it('reads the three modes, context-aware with Cassales\' shares unless given', () => {
    expect(parseCapacityMode('configured')).toEqual({ kind: 'configured' });
    expect(parseCapacityMode(' hardware ')).toEqual({ kind: 'hardware' });
    expect(parseCapacityMode('context-aware')).toEqual({ kind: 'context-aware', minShare: 0.025, maxShare: 0.125 });
    expect(parseCapacityMode('context-aware:min=0.05')).toEqual({ kind: 'context-aware', minShare: 0.05, maxShare: 0.125 });
    expect(parseCapacityMode('context-aware:max=0.5, min=0.1')).toEqual({ kind: 'context-aware', minShare: 0.1, maxShare: 0.5 });
    expect(parseCapacityMode('context-aware:min=0.2,max=0.2')).toEqual({ kind: 'context-aware', minShare: 0.2, maxShare: 0.2 });
    expect(parseCapacityMode('context-aware:min=1,max=1')).toEqual({ kind: 'context-aware', minShare: 1, maxShare: 1 });
  });

  it('refuses a bad spec with a one-line message that says what is valid', () => {
    const error = (spec: string): string => {
      try {
        parseCapacityMode(spec);
      } catch (e) {
        expect(e).toBeInstanceOf(CapacityModeError);
        return (e as Error).message;
      }
      throw new Error(`'${spec}' was accepted`);
    };
    expect(error('advertised')).toBe(
      "unknown capacity mode 'advertised'; valid modes are configured, hardware, context-aware[:min=0.025,max=0.125]",
    );
    expect(error('context-aware:minimum=0.1')).toBe("capacity mode context-aware has no key 'minimum'; valid keys are min, max");
    expect(error('hardware:min=0.1')).toBe('capacity mode hardware takes no parameters');
    expect(error('context-aware:min=0.2,max=0.1')).toBe('context-aware: min 0.2 is above max 0.1');
    // A min above the default max is above the max it runs with.
    expect(error('context-aware:min=0.2')).toBe('context-aware: min 0.2 is above max 0.125');
    expect(error('context-aware:min=0')).toBe('context-aware: min must be above 0, got 0');
    expect(error('context-aware:min=-0.1')).toBe('context-aware: min must be above 0, got -0.1');
    expect(error('context-aware:max=1.5')).toBe('context-aware: max must be at most 1, got 1.5');
    expect(error('context-aware:min=')).toBe('context-aware: min must be a number, as in min=0.1');
    expect(error('context-aware:min=a')).toBe('context-aware: min must be a number, as in min=0.1');
    expect(error('context-aware:min=0.1,min=0.1')).toBe('context-aware: min is given twice');
    for (const spec of ['', 'context-aware:min=0.2,max=0.1', 'nope']) expect(error(spec)).not.toContain('\n');
  });

  it('writes a mode back as a spec it reads again, leaving out default shares', () => {
    for (const spec of ['configured', 'hardware', 'context-aware', 'context-aware:min=0.05', 'context-aware:min=0.1,max=0.5']) {
      expect(capacityModeSpec(parseCapacityMode(spec))).toBe(spec);
    }
    expect(capacityModeSpec(parseCapacityMode('context-aware:min=0.025,max=0.125'))).toBe('context-aware');
  });

  it('lists every mode in the usage text', () => {
    expect(capacityModeUsage()).toMatch(/^ {2}configured\s.*\n {2}hardware\s.*\n {2}context-aware\[:min=0\.025,max=0\.125\]\s/);
  });
});
