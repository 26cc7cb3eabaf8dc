// `rmreplay ingest swim FILE`: the subcommand's help, options and summary.

import type { IngestCommand } from '../ingest-command.js';
import { rejectLines } from '../reject-lines.js';
import type { IngestSwimOptions, IngestSwimResult } from './ingest.js';

export const SWIM_COMMAND: IngestCommand<IngestSwimOptions, IngestSwimResult> = {
  description:
    'load a SWIM workload file (six tab-separated columns: job id, submit s, gap s, map input, shuffle, ' +
    'reduce output bytes); the same content again is a no-op, bad lines are kept with their reason',
  argument: { name: '<file>', description: 'SWIM .tsv file (plain or .gz), or - for standard input' },
  options: [
    { flags: '--name <name>', description: 'trace name for `replay --trace` (default: the file name without extension)' },
    {
      flags: '--source-nodes <n>',
      description: 'machines in the cluster the trace was sampled from (default: 600 for FB-2009, 3000 for FB-2010)',
      value: 'node-count',
    },
  ],
  showsBytesRead: false,
  ingestFrom([file], options, _onProgress, into) {
    const { name, sourceNodes } = options as { name?: string; sourceNodes?: number };
    return into.ingest({ path: file!, name, sourceNodes });
  },
  async summary([file], result, help) {
    const t = result.trace;
    const verb =
      result.status === 'unchanged' ? `already ingested as trace ${t.trace}; nothing changed` : `${result.status} as trace ${t.trace}`;
    const lines = [
      `${file}: ${verb}`,
      `  ${t.jobs} jobs from ${t.lines} lines (${t.blankLines} blank, ${t.rejectedLines} rejected); ` +
        `source cluster ${t.sourceNodes ?? '?'} nodes`,
      `  at source scale SWIM runs ${result.sourceScaleMaps} maps and ${result.sourceScaleReduces} reduces (64 MB blocks)`,
      ...result.warnings.map((warning) => `  warning: ${warning}`),
    ];
    lines.push(...rejectLines(result.rejects, t.rejectedLines));
    // A SWIM trace needs a cluster: the shipped one nearest its source's size (any cluster file will do).
    const cluster = await help.nearestShippedCluster(t.sourceNodes ?? null);
    lines.push(`Replay it (on the shipped cluster ${cluster}, or --cluster YOUR_FILE): ${help.hint(['replay', '--trace', t.trace, '--cluster', cluster])}`);
    return lines;
  },
};
