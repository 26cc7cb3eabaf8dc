// The findings a what-if must say in words, not only list: a file that turns preemption on for
// the scheduler replayed, which the replay never does.

import type { ConfigFinding } from './findings.js';
import { FAIR_PREEMPTION, MONITOR_ENABLE } from './known-properties.js';

/**
 * One line per file that turns preemption on for the scheduler replayed (the CapacityScheduler's
 * monitor, the FairScheduler's switch; the importer marks it unsupported only then): the replay
 * never preempts (docs/model.md 3.9, 4.8), which a what-if on those files must say, not only list.
 */
export function preemptionNotes(findings: readonly ConfigFinding[]): string[] {
  return findings
    .filter((f) => f.kind === 'unsupported' && (f.property === MONITOR_ENABLE || f.property === FAIR_PREEMPTION))
    .map((f) => `${f.file} turns preemption on (${f.property} = ${f.value}); the replay never preempts, so this what-if ignores it`);
}
