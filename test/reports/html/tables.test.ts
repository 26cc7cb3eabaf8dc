// The tables the HTML report shapes with arquero, and how any table becomes escaped HTML.

import { describe, expect, it } from 'vitest';
import { formatNumber, htmlTable, makespanByPolicyAndSetup, nodeRangesLong, tableOf, varyingLabeller } from '../../../src/reports/html/tables.js';

describe('makespanByPolicyAndSetup', () => {
  it('pivots to a row per policy and a column per setup, adaptive first, static settings in order', () => {
    const rows = [
      { family: 'reserve', setting: 16, policy: 'reserve:16vcores', scheduler: 'capacity-fifo', queue_structure: 'one', makespan_s: 100 },
      { family: 'reserve', setting: 8, policy: 'reserve:8vcores', scheduler: 'capacity-fifo', queue_structure: 'one', makespan_s: 120 },
      { family: 'adaptive', setting: null, policy: 'autoadmin', scheduler: 'capacity-fifo', queue_structure: 'one', makespan_s: 99 },
      { family: 'adaptive', setting: null, policy: 'autoadmin', scheduler: 'fair-drf', queue_structure: 'one', makespan_s: 90 },
    ];
    const pivot = makespanByPolicyAndSetup(tableOf(rows));
    expect(pivot.columnNames()).toEqual(['policy', 'capacity-fifo / one', 'fair-drf / one']);
    expect(pivot.objects()).toEqual([
      { policy: 'autoadmin', 'capacity-fifo / one': 99, 'fair-drf / one': 90 },
      { policy: 'reserve:8vcores', 'capacity-fifo / one': 120, 'fair-drf / one': undefined },
      { policy: 'reserve:16vcores', 'capacity-fifo / one': 100, 'fair-drf / one': undefined },
    ]);
  });
});

describe('nodeRangesLong', () => {
  it('folds the seven node-range columns to a row per setup and range, in order', () => {
    const row = {
      scheduler: 's', queue_structure: 'q', nodes_unused_pct: 50, nodes_1_19_pct: 0, nodes_20_39_pct: 0, nodes_40_59_pct: 0,
      nodes_60_79_pct: 0, nodes_80_99_pct: 10, nodes_full_pct: 40,
    };
    const old = { ...row, scheduler: 'old', nodes_unused_pct: null };
    const long = nodeRangesLong(tableOf([row, old]), (r) => String(r['scheduler'])).objects();
    expect(long).toHaveLength(7);
    expect(long[0]).toEqual({ setup: 's', range: 'unused', order: 0, pct: 50 });
    expect(long[6]).toEqual({ setup: 's', range: 'full', order: 6, pct: 40 });
  });
});

describe('htmlTable', () => {
  it('escapes every header and cell, right-aligns numbers and marks nulls', () => {
    const html = htmlTable(tableOf([{ '<q>': `<script>alert(1)</script>`, n: 1.23456, missing: null }]), `a "caption" & more`);
    expect(html).toContain('<th>&lt;q&gt;</th>');
    expect(html).toContain('<td>&lt;script&gt;alert(1)&lt;/script&gt;</td>');
    expect(html).toContain('<td class="num">1.23</td>');
    expect(html).toContain('<td class="null">–</td>');
    expect(html).toContain('<caption>a &quot;caption&quot; &amp; more</caption>');
  });

  it('lets a header break after each underscore, so a column is not as wide as its name', () => {
    expect(htmlTable(tableOf([{ p95_first_container_wait_s: 1 }]))).toContain('<th>p95_<wbr>first_<wbr>container_<wbr>wait_<wbr>s</th>');
  });

  it('rounds by magnitude', () => {
    expect([formatNumber(12), formatNumber(104.78), formatNumber(2.345), formatNumber(0.04712)]).toEqual(['12', '104.8', '2.35', '0.047']);
  });
});

describe('varyingLabeller', () => {
  it('names rows by the fields that differ among them, else by the policy', () => {
    const rows = [
      { cluster: 'c', scheduler: 'capacity-fifo', queue_structure: 'one', policy: 'none' },
      { cluster: 'c', scheduler: 'capacity-fifo', queue_structure: 'one', policy: 'autoadmin' },
    ];
    expect(rows.map(varyingLabeller(rows))).toEqual(['none', 'autoadmin']);
    const setups = [rows[0]!, { ...rows[0]!, scheduler: 'fair-drf', queue_structure: 'two' }];
    expect(setups.map(varyingLabeller(setups))).toEqual(['capacity-fifo / one', 'fair-drf / two']);
    expect([rows[0]!].map(varyingLabeller([rows[0]!]))).toEqual(['none']);
  });
});
