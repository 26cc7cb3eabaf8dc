// A Vega-Lite spec to an SVG string, in this process: compiled to Vega and rendered by a
// headless View (renderer 'none'): no browser and no canvas. Without a canvas, Vega estimates
// text widths from font size, which only moves labels by a few pixels.

import { parse, View } from 'vega';
import { compile } from 'vega-lite';
import type { TopLevelSpec } from 'vega-lite';

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
