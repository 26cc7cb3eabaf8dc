// The settings of one trace format that replay, sweep and advise take (`--swim-bytes`), as
// request fields, and the same settings as the formats read them: by the flag that gives them.
// A format with a replay setting adds its field here; formats without one never appear.

import type { TraceSettings } from '../ingest/trace-format.js';
import type { SwimBytes } from '../model/run-spec.js';

export interface TraceOptions {
  /** SWIM: bytes scaled to the cluster replayed on (absent: scaled) or kept as recorded. */
  readonly swimBytes?: SwimBytes;
}

/** The settings a request gives, by flag; those it leaves out are absent. */
export function traceSettings(options: TraceOptions): TraceSettings {
  return options.swimBytes === undefined ? {} : { 'swim-bytes': options.swimBytes };
}
