// A Vega-Lite spec to an SVG string, in this process: compiled to Vega and rendered by a
// headless View (renderer 'none'): no browser and no canvas. Without a canvas, Vega estimates
// text widths from font size, which only moves labels by a few pixels.

// Vega and Vega-Lite are loaded on the first chart, not when the command line starts: together
// they take most of a second to load, which every other command would pay.

import type { TopLevelSpec } from 'vega-lite';

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [{ parse, View }, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  const view = new View(parse(compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
