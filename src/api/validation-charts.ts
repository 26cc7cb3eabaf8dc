// The chart of each validated pair for an HTML page: per app, the change the replay predicted
// against the change the two logs recorded (reports/html/charts.ts validationChart). `report
// whatif` draws the pairs of the kinds of change its runs make, `report validation` every pair
// it lists.

import { renderSvg, validationChart } from '../reports/html/index.js';
import type { ValidationPointRow } from '../reports/html/index.js';
import { VALIDATION_BAND } from './whatif-evidence.js';
import type { ValidatedPair, ValidatedPoint } from './whatif-evidence.js';
import { validationChangeArgs } from './validate.js';
import { CHANGE_THRESHOLD_MS } from './validate-compare.js';

/** Charts on one page; the other pairs are named in a note. */
export const MAX_VALIDATION_CHARTS = 6;

export async function validationCharts(pairs: readonly ValidatedPair[]): Promise<{ charts: string[]; notes: string[] }> {
  const charts: string[] = [];
  for (const pair of pairs.slice(0, MAX_VALIDATION_CHARTS)) {
    const title = `${pair.trace} against ${pair.changedTrace} (validation ${pair.validationId})`;
    const subtitle = `the change: ${validationChangeArgs(pair.change).join(' ')}`;
    charts.push(await renderSvg(validationChart(title, subtitle, pair.points.map(pointRow), VALIDATION_RULE)));
  }
  const left = pairs.slice(MAX_VALIDATION_CHARTS);
  const notes: string[] =
    left.length === 0
      ? []
      : [`${left.length} more validated pairs are not drawn: ${left.map((p) => `${p.trace} against ${p.changedTrace}`).join(', ')}.`];
  return { charts, notes };
}

export function pointRow(point: ValidatedPoint): ValidationPointRow {
  const outcome = !point.reallyChanged ? 'unchanged' : point.predictedWithin === true ? 'predicted' : 'missed';
  return { app: point.app, predicted_change_s: point.predictedChangeS, real_change_s: point.realChangeS, outcome };
}

/** The rule validate judges by (validate-compare.ts). */
const VALIDATION_RULE = { ...VALIDATION_BAND, changeThresholdS: CHANGE_THRESHOLD_MS / 1000 };
