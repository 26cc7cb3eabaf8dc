// The HTML page: one self-contained file (styles inline, charts as inline SVG, no script, no
// link, nothing fetched), so it opens offline and mails as an attachment. Its Content-Security-
// Policy forbids scripts and every outside resource, a second line of defence behind escaping.

import { escapeHtml } from './escape.js';

/** A part of the page: prose, preformatted text, then charts (SVG markup from render-svg.ts), then tables (HTML). */
export interface PageSection {
  readonly title: string;
  readonly paragraphs?: readonly string[];
  /** Text whose line breaks and spacing carry meaning (a diff), each in a block of its own. */
  readonly preformatted?: readonly string[];
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

// Charts are SVG drawn in black on white: in dark mode they sit on a white card rather than be
// recoloured. On paper (A4, 180 mm between margins) charts shrink to the width and tables wrap
// their cells in a smaller font instead of scrolling, which would cut off their right-hand columns.
const STYLE = `
:root { color-scheme: light dark; }
body { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; background: #fff; margin: 2rem auto; max-width: 1100px; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid #d6dae3; padding-bottom: 0.2rem; margin-top: 2.2rem; }
.byline, .note { color: #5b6475; font-size: 0.9rem; }
.summary { background: #f2f5fb; border-left: 4px solid #3a6fd8; padding: 0.6rem 1rem; }
.summary p { margin: 0.35rem 0; }
figure.chart { margin: 1rem 0; overflow-x: auto; }
pre { background: #f6f8fa; border: 1px solid #d6dae3; padding: 0.5rem 0.8rem; overflow-x: auto; font-size: 0.85rem; }
div.table { overflow-x: auto; margin: 1rem 0; }
table { border-collapse: collapse; font-size: 0.85rem; white-space: nowrap; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
th, td { border: 1px solid #d6dae3; padding: 0.2rem 0.5rem; }
th { background: #eef1f6; text-align: left; white-space: normal; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.null { color: #9aa1ad; text-align: center; }
nav.contents { font-size: 0.9rem; border: 1px solid #d6dae3; padding: 0.4rem 1rem; margin: 1rem 0; }
nav.contents ol { margin: 0.2rem 0; padding-left: 1.4rem; }
nav.contents ul { margin: 0; padding-left: 1.2rem; color: #5b6475; }
a { color: #2557b8; }
figure.chart svg { max-width: 100%; height: auto; }
@media (prefers-color-scheme: dark) {
  body { color: #dfe3ea; background: #15181e; }
  h2, th, td, nav.contents, pre { border-color: #3a404c; }
  pre { background: #1e222b; }
  th { background: #232833; }
  .byline, .note, nav.contents ul { color: #9aa3b2; }
  .summary { background: #1e2532; border-left-color: #6f9bf0; }
  a { color: #8fb3ff; }
  figure.chart svg { background: #fff; border-radius: 4px; }
}
@page { size: A4; margin: 12mm; }
@media print {
  body { font-size: 10pt; max-width: none; margin: 0; padding: 0; color: #000; background: #fff; }
  figure.chart { overflow: visible; break-inside: avoid; }
  pre { overflow: visible; white-space: pre-wrap; overflow-wrap: anywhere; }
  div.table { overflow: visible; }
  table { white-space: normal; font-size: 6.5pt; width: 100%; }
  th, td { padding: 1px 3px; overflow-wrap: anywhere; }
  tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/** Pages with at least this many sections or charts open with a table of contents. */
const CONTENTS_FROM_SECTIONS = 3;
const CONTENTS_FROM_CHARTS = 6;

export function renderPage(page: Page): string {
  const charts = page.sections.reduce((sum, section) => sum + (section.charts?.length ?? 0), 0);
  const withContents = page.sections.length >= CONTENTS_FROM_SECTIONS || charts >= CONTENTS_FROM_CHARTS;
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
    withContents ? renderContents(page.sections) : '',
    ...page.sections.map(renderSection),
    '</body></html>',
    '',
  ].join('\n');
}

/** Links to each section and each chart in it, by the ids renderSection gives them. */
function renderContents(sections: readonly PageSection[]): string {
  const items = sections.map((section, s) => {
    const charts = (section.charts ?? [])
      .map((svg, c) => ({ title: chartTitle(svg), id: chartId(s, c) }))
      .filter((chart): chart is { title: string; id: string } => chart.title !== null)
      .map((chart) => `<li><a href="#${chart.id}">${chart.title}</a></li>`);
    const list = charts.length > 0 ? `<ul>${charts.join('')}</ul>` : '';
    return `<li><a href="#${sectionId(s)}">${escapeHtml(section.title)}</a>${list}</li>`;
  });
  return `<nav class="contents" aria-label="Contents"><strong>Contents</strong><ol>${items.join('')}</ol></nav>`;
}

/**
 * A chart's title as Vega writes it in the SVG (the aria-label of its title text), still escaped
 * as an attribute value, which is as valid in text; null for a chart without one. Vega writes the
 * titles of a chart's panels (the per-queue chart's queue names) before its own: the last is the
 * chart's.
 */
export function chartTitle(svg: string): string | null {
  return [...svg.matchAll(/aria-label="Title text '([^"]*)'"/g)].at(-1)?.[1] ?? null;
}

const sectionId = (s: number): string => `section-${s + 1}`;
const chartId = (s: number, c: number): string => `chart-${s + 1}-${c + 1}`;

function renderSection(section: PageSection, s: number): string {
  return [
    `<section id="${sectionId(s)}"><h2>${escapeHtml(section.title)}</h2>`,
    ...(section.paragraphs ?? []).map((text) => `<p>${escapeHtml(text)}</p>`),
    ...(section.preformatted ?? []).map((text) => `<pre>${escapeHtml(text)}</pre>`),
    ...(section.charts ?? []).map((svg, c) => `<figure class="chart" id="${chartId(s, c)}">${svg}</figure>`),
    ...(section.tables ?? []).map((table) => `<div class="table">${table}</div>`),
    ...(section.notes ?? []).map((text) => `<p class="note">${escapeHtml(text)}</p>`),
    '</section>',
  ].join('\n');
}
