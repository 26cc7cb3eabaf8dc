// `ingest swim`: read a SWIM trace into the database once; the same content again is a no-op.

import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { basename, extname, resolve } from 'node:path';
import { DEFAULT_BLOCK_MB, DEFAULT_BYTES_PER_REDUCE_MB } from '../../model/cluster.js';
import { UserError } from '../../model/errors.js';
import { MAX_NODE_COUNT } from '../../model/scale-nodes.js';
import { parseSwimFile, parseSwimStream } from './parse.js';
import { checkReadable, unreadable } from '../text-file.js';
import { knownSwimSourceNodes, swimJobShape } from './derive.js';
import { findTrace, findTraceBySha256, replaceSwimTrace } from '../../store/index.js';
import type { RejectRow, Store, TraceRecord } from '../../store/index.js';

export interface IngestSwimOptions {
  /** A SWIM file, plain or gzip, or `-` (`/dev/stdin`) for standard input. */
  readonly path: string;
  /** Trace name for `replay --trace`; defaults to the file name without its extension (and .gz); `stdin` for `-`. */
  readonly name?: string;
  /** Machines in the source cluster; defaults to 600 for FB-2009 and 3000 for FB-2010 files. */
  readonly sourceNodes?: number;
  /** What `-` reads (default: process.stdin). */
  readonly stdin?: Readable;
}

/** What `-` is stored as, and the trace name it gets by default. */
const STDIN_PATH = '<stdin>';
const STDIN_TRACE = 'stdin';

/** `FB-2009_samples.tsv.gz` -> `FB-2009_samples`: the file name without .gz and its extension. */
function swimTraceName(path: string): string {
  const name = basename(path).replace(/\.gz$/, '');
  return basename(name, extname(name));
}

export interface IngestSwimResult {
  /** `unchanged`: this content was already ingested (under `trace.trace`). */
  readonly status: 'ingested' | 'replaced' | 'unchanged';
  readonly trace: TraceRecord;
  readonly rejects: readonly RejectRow[];
  /** What was read other than written (epoch-second times counted from the first job). */
  readonly warnings: readonly string[];
  /** Task counts SWIM would run at the source cluster's own size (64 MB blocks, 64 MB per reduce). */
  readonly sourceScaleMaps: number;
  readonly sourceScaleReduces: number;
}

export async function ingestSwim(store: Store, options: IngestSwimOptions): Promise<IngestSwimResult> {
  const stdin = options.path === '-' || options.path === '/dev/stdin';
  const path = stdin ? STDIN_PATH : resolve(options.path);
  if (!stdin) {
    const info = await stat(path).catch((error: unknown) => {
      throw unreadable(error, options.path, 'SWIM trace');
    });
    if (!info.isFile()) throw new UserError(`${options.path} is not a file`);
    await checkReadable(path, 'SWIM trace');
  }
  const name = options.name ?? (stdin ? STDIN_TRACE : swimTraceName(path));
  const sourceNodes = options.sourceNodes ?? (stdin ? null : knownSwimSourceNodes(basename(path)));
  if (sourceNodes === null) {
    throw new UserError(
      `cannot tell the size of the cluster ${basename(path)} was recorded on; pass --source-nodes N ` +
        `(SWIM scales bytes by target/source cluster size)`,
    );
  }
  // Bounded as --nodes is: more is no YARN cluster, and traces.source_nodes is a 32-bit INTEGER.
  if (!(Number.isInteger(sourceNodes) && sourceNodes > 0 && sourceNodes <= MAX_NODE_COUNT)) {
    throw new UserError(`--source-nodes must be a whole number from 1 to ${MAX_NODE_COUNT}, got ${sourceNodes}`);
  }

  const parsed = stdin ? await parseSwimStream(options.stdin ?? process.stdin) : await parseSwimFile(path);
  if (parsed.jobs.length === 0) {
    // Not one job: almost surely the wrong file. An empty trace would only replay to nothing.
    const first = parsed.rejects[0];
    throw new UserError(
      first
        ? `${options.path} holds no SWIM jobs: all ${parsed.rejects.length} non-blank lines were rejected; ` +
            `line ${first.lineNumber}: ${first.reason}`
        : `${options.path} holds no SWIM jobs (it has no non-blank lines)`,
    );
  }
  const sourceScale = (): { maps: number; reduces: number } => {
    let maps = 0;
    let reduces = 0;
    for (const job of parsed.jobs) {
      const shape = swimJobShape(job, sourceNodes, sourceNodes, DEFAULT_BLOCK_MB, DEFAULT_BYTES_PER_REDUCE_MB);
      maps += shape.maps;
      reduces += shape.reduces;
    }
    return { maps, reduces };
  };

  const sameContent = await findTraceBySha256(store, parsed.sha256);
  if (sameContent && (options.name === undefined || sameContent.trace === name)) {
    const scale = sourceScale();
    return {
      status: 'unchanged',
      trace: sameContent,
      rejects: parsed.rejects,
      warnings: parsed.warnings,
      sourceScaleMaps: scale.maps,
      sourceScaleReduces: scale.reduces,
    };
  }
  const existing = await findTrace(store, name);
  if (existing && existing.format !== 'swim') {
    throw new UserError(`trace '${name}' is a ${existing.format} trace; give the SWIM file another --name`);
  }
  const record: TraceRecord = {
    trace: name,
    format: 'swim',
    sourcePath: path,
    // The bytes read and hashed, not a size taken before reading.
    sourceBytes: parsed.bytes,
    sourceSha256: parsed.sha256,
    sourceNodes,
    lines: parsed.lines,
    blankLines: parsed.blankLines,
    rejectedLines: parsed.rejects.length,
    jobs: parsed.jobs.length,
    ingestedAt: new Date(),
  };
  await replaceSwimTrace(store, record, parsed.jobs, parsed.rejects);
  const scale = sourceScale();
  return {
    status: existing ? 'replaced' : 'ingested',
    trace: record,
    rejects: parsed.rejects,
    warnings: parsed.warnings,
    sourceScaleMaps: scale.maps,
    sourceScaleReduces: scale.reduces,
  };
}
