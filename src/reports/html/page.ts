// The HTML page: one self-contained file (styles inline, charts as inline SVG, no script, no
// link, nothing fetched), so it opens offline and mails as an attachment. Its Content-Security-
// Policy forbids scripts and every outside resource, a second line of defence behind escaping.

import { escapeHtml } from './escape.js';

/** A part of the page: prose, then charts (SVG markup from render-svg.ts), then tables (HTML). */
export interface PageSection {
  readonly title: string;
  readonly paragraphs?: readonly string[];
  readonly charts?: readonly string[];
  readonly tables?: readonly string[];
  /** Small print: what was left out and why. */
  readonly notes?: readonly string[];
}

export interface Page {
  readonly title: string;
  /** One line under the title: where the data came from. */
  readonly byline: string;
  /** The summary sentences, first on the page. */
  readonly summary: readonly string[];
  readonly sections: readonly PageSection[];
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #d6dae3; padding-bottom: 0.2rem; margin-top: 2.2rem; }
.byline, .note { color: #5b6475; font-size: 0.9rem; }
.summary { background: #f2f5fb; border-left: 4px solid #3a6fd8; padding: 0.6rem 1rem; }
.summary p { margin: 0.35rem 0; }
figure.chart { margin: 1rem 0; overflow-x: auto; }
div.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: 0.85rem; white-space: nowrap; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
th, td { border: 1px solid #d6dae3; padding: 0.2rem 0.5rem; }
th { background: #eef1f6; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.null { color: #9aa1ad; text-align: center; }
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

export function renderPage(page: Page): string {
  const summary =
    page.summary.length === 0
      ? ''
      : `<section class="summary">${page.summary.map((sentence) => `<p>${escapeHtml(sentence)}</p>`).join('')}</section>`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head><body>',
    `<h1>${escapeHtml(page.title)}</h1>`,
    `<p class="byline">${escapeHtml(page.byline)}</p>`,
    summary,
    ...page.sections.map(renderSection),
    '</body></html>',
    '',
  ].join('\n');
}

function renderSection(section: PageSection): string {
  return [
    `<section><h2>${escapeHtml(section.title)}</h2>`,
    ...(section.paragraphs ?? []).map((text) => `<p>${escapeHtml(text)}</p>`),
    ...(section.charts ?? []).map((svg) => `<figure class="chart">${svg}</figure>`),
    ...(section.tables ?? []).map((table) => `<div class="table">${table}</div>`),
    ...(section.notes ?? []).map((text) => `<p class="note">${escapeHtml(text)}</p>`),
    '</section>',
  ].join('\n');
}
