// The trace formats rmreplay reads, by the `format` a stored trace carries.

import { UserError } from '../model/errors.js';
import type { Store, TraceRecord } from '../store/index.js';
import { RMLOG_FORMAT } from './rmlog/format.js';
import { SWIM_FORMAT } from './swim/format.js';
import type { TraceFormat, TraceSettings } from './trace-format.js';

export const TRACE_FORMATS: readonly TraceFormat<never, unknown>[] = [SWIM_FORMAT, RMLOG_FORMAT];

/**
 * The format that reads a stored trace, among `formats` (a test adds its own to the list); a
 * format this build does not know is refused, never guessed.
 */
export function formatOf(record: TraceRecord, formats: readonly TraceFormat<never, unknown>[] = TRACE_FORMATS): TraceFormat<never, unknown> {
  const format = formats.find((f) => f.name === record.format);
  if (!format) {
    throw new UserError(
      `trace ${record.trace} is stored in format '${record.format}', which this rmreplay does not read ` +
        `(it reads ${formats.map((f) => f.name).join(', ')}): ingest it again with this version`,
    );
  }
  return format;
}

/** Ingest through a format: its tables made first if it brings its own (TraceFormat.tables). */
export async function ingestTrace<Options, Result>(store: Store, format: TraceFormat<Options, Result>, options: Options): Promise<Result> {
  for (const statement of format.tables ?? []) await store.run(statement);
  return format.ingest(store, options);
}

/**
 * Refuse a setting the trace's format does not take (`format` null: a scenario, which takes
 * none), naming the formats that do; `what` names the trace.
 */
export function refuseSettings(settings: TraceSettings, format: TraceFormat<never, unknown> | null, what: string): void {
  for (const flag of Object.keys(settings)) {
    if (format?.settings.includes(flag)) continue;
    const takers = TRACE_FORMATS.filter((f) => f.settings.includes(flag)).map((f) => f.traces);
    const appliesTo = takers.length > 0 ? takers.join(' and ') : 'no trace format';
    throw new UserError(
      format === null ? `--${flag} applies to ${appliesTo}, not to ${what}` : `--${flag} applies to ${appliesTo}; ${what} is ${format.oneTrace}`,
    );
  }
}
