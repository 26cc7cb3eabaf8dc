// The trace formats rmreplay reads, by the `format` a stored trace carries.

import { UserError } from '../model/errors.js';
import type { TraceRecord } from '../store/index.js';
import { RMLOG_FORMAT } from './rmlog/format.js';
import { SWIM_FORMAT } from './swim/format.js';
import type { TraceFormat } from './trace-format.js';

export const TRACE_FORMATS: readonly TraceFormat<never, unknown>[] = [SWIM_FORMAT, RMLOG_FORMAT];

/** The format that reads a stored trace; a format this build does not know is refused, never guessed. */
export function formatOf(record: TraceRecord): TraceFormat<never, unknown> {
  const format = TRACE_FORMATS.find((f) => f.name === record.format);
  if (!format) {
    throw new UserError(
      `trace ${record.trace} is stored in format '${record.format}', which this rmreplay does not read ` +
        `(it reads ${TRACE_FORMATS.map((f) => f.name).join(', ')}): ingest it again with this version`,
    );
  }
  return format;
}
