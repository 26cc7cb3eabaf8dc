// A colour per series, kept for the page, on hand-made series names.

import { describe, expect, it } from 'vitest';
import { SERIES_PALETTE, SeriesColours } from '../../../src/reports/html/series-colours.js';

describe('SeriesColours', () => {
  it('gives a series the same colour in every chart, whichever series a chart holds', () => {
    const colours = new SeriesColours();
    const first = colours.scaleFor(['as-configured', 'autoadmin', 'reserve:16vcores']);
    const second = colours.scaleFor(['marp-feedback', 'autoadmin']);
    expect(first.range).toEqual([SERIES_PALETTE[0], SERIES_PALETTE[1], SERIES_PALETTE[2]]);
    // autoadmin keeps the colour it got first; marp-feedback, new, takes the first colour free in
    // its chart (blue: as-configured is not in it), and keeps that too.
    expect(second).toEqual({ domain: ['marp-feedback', 'autoadmin'], range: [SERIES_PALETTE[0], SERIES_PALETTE[1]] });
    expect(colours.scaleFor(['autoadmin', 'marp-feedback']).range).toEqual([SERIES_PALETTE[1], SERIES_PALETTE[0]]);
  });

  it('starts the series of another trace at the first colour free in their chart', () => {
    // Ten setups of one trace take the whole palette; the policies of a second trace, sharing no
    // name with them, start again at blue, while autoadmin, already coloured, keeps its colour.
    const colours = new SeriesColours();
    colours.scaleFor(['autoadmin', ...Array.from({ length: 9 }, (_, i) => `setup ${i}`)]);
    expect(colours.scaleFor(['none', 'autoadmin', 'reserve:16vcores']).range).toEqual([SERIES_PALETTE[1], SERIES_PALETTE[0], SERIES_PALETTE[2]]);
  });

  it('lists a series once however often a chart names it', () => {
    expect(new SeriesColours().scaleFor(['a', 'b', 'a']).domain).toEqual(['a', 'b']);
  });
});
