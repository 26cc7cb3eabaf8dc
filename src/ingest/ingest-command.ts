// What a trace format says of its `rmreplay ingest <name>` subcommand, as plain data and two
// functions, so that the CLI builds the subcommand from the registered formats (formats.ts)
// without knowing any of them: the description, argument and options its help shows, how the
// parsed command line becomes the format's ingest options, and what it prints after.

/** The callback of a format that reports bytes read while it ingests. */
export type BytesProgress = (path: string, bytesRead: number, bytes: number) => void;

export interface IngestOption {
  /** As commander takes them: `--name <name>`. */
  readonly flags: string;
  readonly description: string;
  /** How the value is read: as given (absent), or a node count (a whole number from 1 to MAX_NODE_COUNT). */
  readonly value?: 'node-count';
}

/** What the summary may ask of the program around it. */
export interface IngestSummaryHelp {
  /** A command for the user to run next, as they invoke rmreplay. */
  hint(args: readonly string[]): string;
  /** The shipped cluster file nearest a trace's source cluster in size. */
  nearestShippedCluster(sourceNodes: number | null): Promise<string>;
}

/**
 * A format's ingest on one store. A method, not a function type: a function-typed parameter would
 * make a format's options type count against TRACE_FORMATS' TraceFormat<never, unknown>.
 */
export interface FormatIngest<IngestOptions, IngestResult> {
  ingest(options: IngestOptions): Promise<IngestResult>;
}

export interface IngestCommand<IngestOptions, IngestResult> {
  readonly description: string;
  /** The one positional argument: `<file>`, or `<files...>` for several. */
  readonly argument: { readonly name: string; readonly description: string };
  /** Its options, in help order; every subcommand also takes --json after them. */
  readonly options: readonly IngestOption[];
  /** Whether to show the bytes read as it goes (on a terminal). */
  readonly showsBytesRead: boolean;
  /**
   * Ingest from the command line: `files` are the argument's values (one for `<file>`), `options`
   * the parsed options by commander's camel-cased name; `into.ingest` is the format's own ingest
   * (its tables made first), called with the options these make.
   */
  ingestFrom(
    files: readonly string[],
    options: Readonly<Record<string, unknown>>,
    onProgress: BytesProgress | undefined,
    into: FormatIngest<IngestOptions, IngestResult>,
  ): Promise<IngestResult>;
  /** The lines printed after an ingest without --json. */
  summary(files: readonly string[], result: IngestResult, help: IngestSummaryHelp): string[] | Promise<string[]>;
}
