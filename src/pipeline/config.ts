// A pipeline's configuration file: JSON (Node reads it without a library), validated with zod.
// Every error is one line naming the file and the field. Paths in the file are taken from the
// file's own directory, so a cron job or a systemd unit gives the same result from any working
// directory.

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '../model/errors.js';
import { parseCapacityMode } from '../model/capacity-mode.js';
import type { CapacityMode } from '../model/capacity-mode.js';
import { MAX_NODE_COUNT } from '../model/scale-nodes.js';
import { expandPolicySpecs } from '../policies/admission/index.js';
import { parseSchedulingPolicy } from '../policies/scheduling/index.js';
import { reportNames } from '../reports/index.js';
import { QUERIES_DIR } from '../paths.js';

/** The reports written for each trace when the file names none. */
export const DEFAULT_PIPELINE_REPORTS: readonly string[] = ['comparison', 'completion_rate', 'utilization'];
export const DEFAULT_KEEP_DAYS = 14;
export const DEFAULT_REPORTS_DIR_NAME = 'reports';
/**
 * Reports that are not one query: `whatif` (an RM log's what-if page) and `advise` (the change to
 * make), regenerated with the rest; the names match api/report.ts and api/advise.ts.
 */
export const PIPELINE_PAGE_REPORTS: readonly string[] = ['whatif', 'advise'];

function pipelineReportNames(): string[] {
  return [...reportNames(QUERIES_DIR), ...PIPELINE_PAGE_REPORTS];
}

/** A message that must hold on one line: the first line of what a parser threw. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

/** A string field checked by a parser that throws on bad input; its message becomes the issue. */
function checkedString(check: (value: string) => unknown) {
  return z.string().superRefine((value, ctx) => {
    try {
      check(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: firstLine(error) });
    }
  });
}

const nonEmpty = z.string().trim().min(1, 'must not be empty');

const TraceSchema = z
  .strictObject({
    name: nonEmpty,
    rmlogs: z.array(nonEmpty).min(1, 'list at least one RM log file or pattern').optional(),
    swim: nonEmpty.optional(),
    sourceNodes: z.number().int().min(1).max(MAX_NODE_COUNT).optional(),
  })
  .superRefine((trace, ctx) => {
    if ((trace.rmlogs === undefined) === (trace.swim === undefined)) {
      ctx.addIssue({ code: 'custom', message: 'give exactly one of "rmlogs" (files or patterns) or "swim" (a file)' });
    }
    if (trace.sourceNodes !== undefined && trace.swim === undefined) {
      ctx.addIssue({ code: 'custom', path: ['sourceNodes'], message: 'applies to SWIM traces only' });
    }
  });

const CompareSchema = z.strictObject({
  traces: z.array(nonEmpty).min(1).optional(),
  cluster: nonEmpty.optional(),
  yarnSite: nonEmpty.optional(),
  capacityScheduler: nonEmpty.optional(),
  fairScheduler: nonEmpty.optional(),
  nodes: z.number().int().min(1).max(MAX_NODE_COUNT).optional(),
  capacity: checkedString(parseCapacityMode).optional(),
  schedulers: z.array(checkedString(parseSchedulingPolicy)).min(1).optional(),
  policies: z.array(checkedString(expandPolicySpecs)).min(1).optional(),
  seeds: z.array(z.number().int().nonnegative()).min(1).optional(),
});

const ReportsSchema = z.strictObject({
  dir: nonEmpty.default(DEFAULT_REPORTS_DIR_NAME),
  names: z
    .array(
      z.string().refine((name) => pipelineReportNames().includes(name), {
        message: `unknown report; reports are: ${pipelineReportNames().join(', ')}`,
      }),
    )
    .min(1)
    .default([...DEFAULT_PIPELINE_REPORTS]),
  keepDays: z.number().int().min(1).default(DEFAULT_KEEP_DAYS),
});

const ConfigSchema = z
  .strictObject({
    database: nonEmpty.optional(),
    workers: z.number().int().min(1).max(256).optional(),
    traces: z.array(TraceSchema).min(1, 'list at least one trace'),
    compare: z.array(CompareSchema).default([]),
    reports: ReportsSchema.default({ dir: DEFAULT_REPORTS_DIR_NAME, names: [...DEFAULT_PIPELINE_REPORTS], keepDays: DEFAULT_KEEP_DAYS }),
  })
  .superRefine((config, ctx) => {
    const names = config.traces.map((trace) => trace.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i) ctx.addIssue({ code: 'custom', path: ['traces', i, 'name'], message: `trace '${name}' is listed twice` });
    });
    config.compare.forEach((compare, i) => {
      (compare.traces ?? []).forEach((trace, j) => {
        if (!names.includes(trace)) {
          ctx.addIssue({ code: 'custom', path: ['compare', i, 'traces', j], message: `'${trace}' is not one of the traces listed: ${names.join(', ')}` });
        }
      });
    });
  });

export interface PipelineTrace {
  readonly name: string;
  /** RM log files or patterns (ingest/file-patterns.ts), absolute. */
  readonly rmlogs?: readonly string[];
  /** A SWIM file, absolute. */
  readonly swim?: string;
  readonly sourceNodes?: number;
}

/** One grid to replay on each of its traces, as `sweep` would. */
export interface PipelineCompare {
  readonly traces: readonly string[];
  readonly cluster?: string;
  readonly yarnSite?: string;
  readonly capacityScheduler?: string;
  readonly fairScheduler?: string;
  readonly nodes?: number;
  readonly capacity?: CapacityMode;
  readonly schedulers?: readonly string[];
  readonly policies?: readonly string[];
  readonly seeds?: readonly number[];
}

export interface PipelineConfig {
  readonly path: string;
  readonly database?: string;
  readonly workers?: number;
  readonly traces: readonly PipelineTrace[];
  readonly compare: readonly PipelineCompare[];
  readonly reports: { readonly dir: string; readonly names: readonly string[]; readonly keepDays: number };
}

/** Read and check a configuration file; a problem is a UserError of one line. */
export async function loadPipelineConfig(path: string): Promise<PipelineConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UserError(`cannot read pipeline configuration ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${path} is not valid JSON: ${firstLine(error)}`);
  }
  return parsePipelineConfig(json, path);
}

/** Check parsed JSON as the configuration file at `path` (relative paths are taken from its directory). */
export function parsePipelineConfig(json: unknown, path: string): PipelineConfig {
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = fieldName(issue.path);
    throw new UserError(`${path}: ${field === '' ? '' : `${field}: `}${oneLine(issue.message)}`);
  }
  const config = parsed.data;
  const baseDir = dirname(resolve(path));
  const from = (p: string): string => resolve(baseDir, p);
  const traceNames = config.traces.map((trace) => trace.name);
  return {
    path: resolve(path),
    database: config.database === undefined ? undefined : from(config.database),
    workers: config.workers,
    traces: config.traces.map((trace) => ({
      name: trace.name,
      ...(trace.rmlogs ? { rmlogs: trace.rmlogs.map(from) } : {}),
      ...(trace.swim !== undefined ? { swim: from(trace.swim) } : {}),
      ...(trace.sourceNodes !== undefined ? { sourceNodes: trace.sourceNodes } : {}),
    })),
    compare: config.compare.map((compare) => ({
      traces: compare.traces ?? traceNames,
      // A cluster is a file beside the configuration, else the name of a shipped one.
      ...(compare.cluster !== undefined ? { cluster: isAbsolute(compare.cluster) || existsSync(from(compare.cluster)) ? from(compare.cluster) : compare.cluster } : {}),
      ...(compare.yarnSite !== undefined ? { yarnSite: from(compare.yarnSite) } : {}),
      ...(compare.capacityScheduler !== undefined ? { capacityScheduler: from(compare.capacityScheduler) } : {}),
      ...(compare.fairScheduler !== undefined ? { fairScheduler: from(compare.fairScheduler) } : {}),
      ...(compare.nodes !== undefined ? { nodes: compare.nodes } : {}),
      ...(compare.capacity !== undefined ? { capacity: parseCapacityMode(compare.capacity) } : {}),
      ...(compare.schedulers ? { schedulers: compare.schedulers } : {}),
      ...(compare.policies ? { policies: compare.policies } : {}),
      ...(compare.seeds ? { seeds: compare.seeds } : {}),
    })),
    reports: { dir: from(config.reports.dir), names: config.reports.names, keepDays: config.reports.keepDays },
  };
}

/** `traces[0].rmlogs[1]`: where in the file an issue is. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, '; ');
}
