// The page around the charts: a table of contents on long pages whose links all land.

import { describe, expect, it } from 'vitest';
import { chartTitle, renderPage } from '../../../src/reports/html/page.js';

/** What Vega writes for a chart's title, as far as the page reads it. */
const svg = (title: string): string => `<svg><g aria-label="Title text '${title}'"><text>${title}</text></g></svg>`;

describe('renderPage', () => {
  it('opens a page of three sections with contents linking each section and chart', () => {
    const html = renderPage({
      title: 'What if: t',
      byline: 'b',
      summary: [],
      sections: [
        { title: 'How far to trust the replay' },
        { title: 'Every policy replayed', charts: [svg('Makespan against reserve'), svg('Apps completed over time')] },
        { title: 'Predicted & checked', charts: ['<svg></svg>'] },
      ],
    });
    const links = [...html.matchAll(/<a href="#([^"]+)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ['section-1', 'How far to trust the replay'],
      ['section-2', 'Every policy replayed'],
      ['chart-2-1', 'Makespan against reserve'],
      ['chart-2-2', 'Apps completed over time'],
      ['section-3', 'Predicted &amp; checked'],
    ]);
    for (const [id] of links) expect(html).toContain(`id="${id}"`);
  });

  it('keeps the line breaks of preformatted text, escaped, in a block of its own', () => {
    const diff = ['--- a.xml', '+++ a.xml (advised)', '-    <value>0.1</value>', '+    <value>0.3</value>'].join('\n');
    const html = renderPage({ title: 't', byline: 'b', summary: [], sections: [{ title: 'one', paragraphs: ['Before.'], preformatted: [diff] }] });
    expect(html).toContain('<p>Before.</p>\n<pre>--- a.xml\n+++ a.xml (advised)\n-    &lt;value&gt;0.1&lt;/value&gt;\n+    &lt;value&gt;0.3&lt;/value&gt;</pre>');
  });

  it('gives a short page no contents', () => {
    const html = renderPage({ title: 't', byline: 'b', summary: [], sections: [{ title: 'one', charts: [svg('a')] }] });
    expect(html).not.toContain('<nav');
  });

  it('reads a chart title as Vega writes it, or none', () => {
    expect(chartTitle(svg('Pending apps over time'))).toBe('Pending apps over time');
    expect(chartTitle('<svg></svg>')).toBeNull();
    // Panel titles come first in Vega's SVG, the chart's own last.
    const panels = `<svg><text aria-label="Title text 'root.a'"/><text aria-label="Title text 'root.b'"/>${svg('Memory held per queue')}</svg>`;
    expect(chartTitle(panels)).toBe('Memory held per queue');
  });
});
