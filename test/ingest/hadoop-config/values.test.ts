import { describe, expect, it } from 'vitest';
import { parseFairResource } from '../../../src/ingest/hadoop-config/index.js';
import { booleanValue, integerValue, numberValue } from '../../../src/ingest/hadoop-config/values.js';

const source = (value: string, unresolved: string | null = null) => ({
  file: 'yarn-site.xml',
  line: 7,
  property: 'yarn.x',
  value,
  unresolved,
});

describe('typed property values', () => {
  it('reads integers as Hadoop does (decimal or 0x hex), numbers with a Java suffix, true/false in any case', () => {
    expect(integerValue(source(' 8192 '))).toBe(8192);
    expect(integerValue(source('0x400'))).toBe(1024);
    expect(integerValue(source('-1'))).toBe(-1);
    expect(numberValue(source('0.25'))).toBe(0.25);
    expect(numberValue(source('1.5f'))).toBe(1.5);
    expect(numberValue(source('1e2'))).toBe(100);
    expect(booleanValue(source('TRUE'))).toBe(true);
    expect(booleanValue(source('false'))).toBe(false);
  });

  it('names the file, line and property of a bad value, and an undefined ${var} behind it', () => {
    expect(() => integerValue(source('1.5'))).toThrow('yarn-site.xml:7: yarn.x = "1.5" is not an integer');
    expect(() => integerValue(source('${nm.mb}', '${nm.mb}'))).toThrow(
      'yarn-site.xml:7: yarn.x = "${nm.mb}" is not an integer (${nm.mb} is not defined in this file)',
    );
    expect(() => numberValue(source('half'))).toThrow('yarn-site.xml:7: yarn.x = "half" is not a number');
    expect(() => booleanValue(source('yes'))).toThrow(/"yes" is not true or false/);
  });
});

describe('parseFairResource', () => {
  it('reads the old "X mb, Y vcores" form in either order, with or without the comma', () => {
    const absolute = { kind: 'absolute', memoryMb: 1024, vcores: 2, others: [] };
    expect(parseFairResource('1024 mb, 2 vcores')).toEqual(absolute);
    expect(parseFairResource('2 vcores, 1024 mb')).toEqual(absolute);
    expect(parseFairResource('1024mb 2vcores')).toEqual(absolute);
    expect(parseFairResource('1024 MB, 2 VCores')).toEqual(absolute);
    expect(parseFairResource('1024.5 mb, 2 vcores')).toEqual(absolute);
  });

  it('reads the name=value form; a resource left out is null, another type is listed', () => {
    expect(parseFairResource('memory-mb=1024, vcores=2')).toEqual({ kind: 'absolute', memoryMb: 1024, vcores: 2, others: [] });
    expect(parseFairResource('vcores=2')).toEqual({ kind: 'absolute', memoryMb: null, vcores: 2, others: [] });
    expect(parseFairResource('memory-mb=1024, vcores=2, yarn.io/gpu=1')).toEqual({
      kind: 'absolute',
      memoryMb: 1024,
      vcores: 2,
      others: ['yarn.io/gpu'],
    });
  });

  it('reads percentages of the cluster: one for both, per resource, or name=value', () => {
    expect(parseFairResource('50%')).toEqual({ kind: 'percent', memoryPercent: 50, vcoresPercent: 50, others: [] });
    expect(parseFairResource('50% memory, 25% cpu')).toEqual({ kind: 'percent', memoryPercent: 50, vcoresPercent: 25, others: [] });
    expect(parseFairResource('25.5 % CPU, 50% Memory')).toEqual({ kind: 'percent', memoryPercent: 50, vcoresPercent: 25.5, others: [] });
    expect(parseFairResource('memory-mb=40%, vcores=60%')).toEqual({ kind: 'percent', memoryPercent: 40, vcoresPercent: 60, others: [] });
    // A resource left out of a percentage list is 100%.
    expect(parseFairResource('memory-mb=40%')).toEqual({ kind: 'percent', memoryPercent: 40, vcoresPercent: 100, others: [] });
  });

  it('says what is wrong with a bad string', () => {
    expect(() => parseFairResource('')).toThrow('is empty');
    expect(() => parseFairResource('1024 mb')).toThrow('is not of the form "1024 mb, 2 vcores"');
    expect(() => parseFairResource('1024 mb, 2 cores')).toThrow('names no vcores');
    expect(() => parseFairResource('-1 mb, 2 vcores')).toThrow('has a negative memory value');
    expect(() => parseFairResource('memory-mb=40%, vcores=2')).toThrow('mixes percentages and absolute values');
    expect(() => parseFairResource('memory-mb=1.5, vcores=2')).toThrow('is not an integer');
    expect(() => parseFairResource('50% memory, 25% disk')).toThrow('names no cpu');
  });
});
