// Query results as arquero tables, the shapes the page shows (pivoted, folded, derived), and
// tables as escaped HTML. Row functions go through arquero's `escape`: arquero otherwise parses a
// function's source text, which a bundler or test runner may have rewritten.

import { escape, from, not, table } from 'arquero';
import type { ColumnTable } from 'arquero';
import type { QueryRows } from '../../store/index.js';
import { escapeHtml } from './escape.js';

/** A query result as an arquero table, columns in the query's order. */
export function toTable(result: QueryRows): ColumnTable {
  return table(Object.fromEntries(result.columns.map((column, i) => [column, result.rows.map((row) => row[i])])));
}

/** A table's rows as objects. */
export function objectsOf<T>(data: ColumnTable): T[] {
  return data.objects() as T[];
}

/** What tells the setups of one trace apart: scheduler, queue layout, and the cluster if it varies. */
export function setupLabel(
  row: { scheduler?: string | null; queue_structure?: string | null; cluster?: string | null },
  withCluster = false,
): string {
  const parts = [withCluster ? row.cluster : null, row.scheduler, row.queue_structure];
  return parts.filter((part): part is string => typeof part === 'string').join(' / ');
}

/**
 * Names rows by the fields whose values differ among them (of cluster, scheduler, queue layout
 * and policy, in that order), joined by ' / ': the shortest label that still tells them apart.
 */
export function varyingLabeller(
  rows: readonly Record<string, unknown>[],
  fields: readonly string[] = ['cluster', 'scheduler', 'queue_structure', 'policy'],
): (row: Record<string, unknown>) => string {
  const varying = fields.filter((field) => new Set(rows.map((row) => row[field])).size > 1);
  const shown = varying.length > 0 ? varying : fields.slice(-1);
  return (row) => shown.map((field) => labelPart(row[field])).join(' / ');
}

function labelPart(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === null || value === undefined ? '–' : JSON.stringify(value);
}

/**
 * Mean makespan (s) with a row per admission policy and a column per setup (scheduler / queue
 * layout), from makespan_by_setting.sql rows of one trace: the side-by-side table of a what-if.
 */
export function makespanByPolicyAndSetup(settingRows: ColumnTable): ColumnTable {
  const withSetup = settingRows.derive({ setup: escape((d: Record<string, string | null>) => setupLabel(d)) });
  return withSetup
    .groupby('family', 'setting', 'policy')
    .pivot('setup', 'makespan_s')
    .orderby(
      escape((d: { family: string }) => FAMILY_ORDER.indexOf(d.family)),
      'setting',
      'policy',
    )
    .select(not('family', 'setting'));
}

const FAMILY_ORDER = ['adaptive', 'other', 'reserve', 'am-share', 'max-apps'];

/** utilization.sql's node-range columns, from unused to full, with the labels the chart shows. */
export const NODE_RANGES: readonly { readonly column: string; readonly label: string }[] = [
  { column: 'nodes_unused_pct', label: 'unused' },
  { column: 'nodes_1_19_pct', label: '1-19 %' },
  { column: 'nodes_20_39_pct', label: '20-39 %' },
  { column: 'nodes_40_59_pct', label: '40-59 %' },
  { column: 'nodes_60_79_pct', label: '60-79 %' },
  { column: 'nodes_80_99_pct', label: '80-99 %' },
  { column: 'nodes_full_pct', label: 'full' },
];

/** utilization.sql rows folded to one row per setup and node range (setup, range, order, pct). */
export function nodeRangesLong(utilisationRows: ColumnTable, setupOf: (row: Record<string, unknown>) => string): ColumnTable {
  const labels = Object.fromEntries(NODE_RANGES.map((range, order) => [range.column, { label: range.label, order }]));
  return utilisationRows
    .derive({ setup: escape(setupOf) })
    .filter(escape((d: { nodes_unused_pct: unknown }) => d.nodes_unused_pct !== null && d.nodes_unused_pct !== undefined))
    .select('setup', ...NODE_RANGES.map((range) => range.column))
    .fold(NODE_RANGES.map((range) => range.column), { as: ['column', 'pct'] })
    .derive({
      range: escape((d: { column: string }) => labels[d.column]!.label),
      order: escape((d: { column: string }) => labels[d.column]!.order),
    })
    .select('setup', 'range', 'order', 'pct');
}

/** Rows of objects as an arquero table (for shaping rows built in code). */
export function tableOf(rows: readonly object[]): ColumnTable {
  return from(rows as object[]);
}

/**
 * A table as HTML; every cell and header is escaped, numbers right-aligned and rounded. A header
 * may break after each underscore (<wbr>), so that a column of short figures is not as wide as
 * its name (p95_first_container_wait_s): at 1400 px the advise table lost its last columns
 * to a scroll bar.
 */
export function htmlTable(data: ColumnTable, caption?: string): string {
  const columns = data.columnNames();
  const head = columns.map((column) => `<th>${escapeHtml(column).replaceAll('_', '_<wbr>')}</th>`).join('');
  const body = (data.objects() as Record<string, unknown>[])
    .map((row) => `<tr>${columns.map((column) => cell(row[column])).join('')}</tr>`)
    .join('\n');
  const captionHtml = caption === undefined ? '' : `<caption>${escapeHtml(caption)}</caption>`;
  return `<table>${captionHtml}<thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))) return '<td class="null">–</td>';
  if (typeof value === 'number') return `<td class="num">${escapeHtml(formatNumber(value))}</td>`;
  return `<td>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</td>`;
}

/** Integers as they are; other numbers to 1 decimal from 10 up, 2 from 1 up, else 3. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  const magnitude = Math.abs(value);
  return value.toFixed(magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3);
}
