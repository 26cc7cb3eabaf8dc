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
    return withHoverTitles(await view.toSVG());
  } finally {
    view.finalize();
  }
}

/**
 * Vega writes a mark's tooltip as its aria-label and nothing a browser shows on hover; the page's
 * CSP forbids the script Vega's tooltips need. An SVG <title> child is shown on hover with no
 * script, so each labelled mark shape gets one holding its label (already escaped as an
 * attribute value, which is as valid in text).
 */
export function withHoverTitles(svg: string): string {
  return svg.replace(
    /<(path|rect|line|circle)\b([^>]*?)\saria-label="([^"]*)"([^>]*?)\/>/g,
    (_match, tag: string, before: string, label: string, after: string) =>
      `<${tag}${before} aria-label="${label}"${after}><title>${label}</title></${tag}>`,
  );
}
