// The `rmreplay ingest` subcommands, one per registered trace format (ingest/formats.ts): what
// the CLI needs to build each without knowing the format, its call bound to the format's ingest.

import { nearestShippedCluster } from './cluster-file.js';
import { ingestTrace, TRACE_FORMATS } from '../ingest/formats.js';
import type { BytesProgress, IngestOption } from '../ingest/ingest-command.js';
import type { TraceFormat } from '../ingest/trace-format.js';
import type { Store } from '../store/index.js';

export type { BytesProgress, IngestOption } from '../ingest/ingest-command.js';

export interface IngestSubcommand {
  /** The format's name: `rmreplay ingest <name>`. */
  readonly name: string;
  readonly description: string;
  readonly argument: { readonly name: string; readonly description: string };
  readonly options: readonly IngestOption[];
  readonly showsBytesRead: boolean;
  /** Ingest `files` (the argument's values) with the parsed `options`; the result is what --json prints. */
  ingest(store: Store, files: readonly string[], options: Readonly<Record<string, unknown>>, onProgress: BytesProgress | undefined): Promise<unknown>;
  /** The lines printed for `result` (what `ingest` returned) without --json; `hint` writes a command to run next. */
  summary(files: readonly string[], result: unknown, hint: (args: readonly string[]) => string): Promise<string[]>;
}

/** One subcommand per format of `formats` (a test adds its own), in their order. */
export function ingestSubcommands(formats: readonly TraceFormat<never, unknown>[] = TRACE_FORMATS): IngestSubcommand[] {
  return formats.map((format) => {
    const { command } = format;
    return {
      name: format.name,
      description: command.description,
      argument: command.argument,
      options: command.options,
      showsBytesRead: command.showsBytesRead,
      ingest: (store, files, options, onProgress) => command.ingestFrom(files, options, onProgress, {
        ingest: (ingestOptions) => ingestTrace(store, format, ingestOptions),
      }),
      // `result` is what this subcommand's `ingest` returned: the CLI hands it back unchanged.
      summary: async (files, result, hint) => command.summary(files, result, { hint, nearestShippedCluster }),
    };
  });
}
