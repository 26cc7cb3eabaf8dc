// The rejected lines an ingest's summary shows: the first few, and how many more are stored.

import type { RejectRow } from '../store/index.js';

const SHOWN_REJECTS = 10;

/** The first rejects, and how many more the table holds (`total` of them in all). */
export function rejectLines(rejects: readonly RejectRow[], total: number): string[] {
  const shown = rejects.slice(0, SHOWN_REJECTS);
  const lines = shown.map((reject) => `  rejected line ${reject.lineNumber}: ${reject.reason}`);
  if (total > shown.length) lines.push(`  ... and ${total - shown.length} more in table ingest_rejects`);
  return lines;
}
