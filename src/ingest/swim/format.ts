// SWIM workload traces as a trace format: a file of jobs sized in bytes, stored as written, and
// turned into tasks for whichever cluster it is replayed on (derive.ts). It records no cluster.

import { nodeCount } from '../../model/cluster.js';
import { UserError } from '../../model/errors.js';
import { SWIM_BYTES } from '../../model/run-spec.js';
import type { SwimBytes } from '../../model/run-spec.js';
import { loadSwimJobs } from '../../store/index.js';
import type { LoadedTrace, TraceFormat } from '../trace-format.js';
import { SWIM_COMMAND } from './command.js';
import { deriveSwimWorkload } from './derive.js';
import { ingestSwim } from './ingest.js';
import type { IngestSwimOptions, IngestSwimResult } from './ingest.js';

/** The replay setting a SWIM trace takes: how its bytes meet the cluster (model/run-spec.ts SwimBytes). */
const SWIM_BYTES_FLAG = 'swim-bytes';

export const SWIM_FORMAT: TraceFormat<IngestSwimOptions, IngestSwimResult> = {
  name: 'swim',
  ingestUsage: 'rmreplay ingest swim FILE',
  oneTrace: 'a SWIM trace',
  traces: 'SWIM traces',
  settings: [SWIM_BYTES_FLAG],
  command: SWIM_COMMAND,
  ingest: ingestSwim,
  async load(store, record): Promise<LoadedTrace> {
    const jobs = await loadSwimJobs(store, record.trace);
    return {
      recordedCluster: null,
      clusterMissing:
        `replaying trace ${record.trace} needs --cluster FILE (shipped examples: fb2009-600, fb2010-3000), ` +
        'or Hadoop configuration files with --nodes N',
      notes: [],
      nodeTimeline: null,
      heartbeatPhasesMs: null,
      clusterNotes: () => [],
      workloadFor(cluster, settings) {
        // A trace stored without its source's size is taken as recorded on the cluster replayed on.
        const sourceNodes = record.sourceNodes ?? nodeCount(cluster);
        const bytes = swimBytesOf(settings[SWIM_BYTES_FLAG]);
        return {
          workload: deriveSwimWorkload(record.trace, jobs, sourceNodes, cluster, bytes),
          // sourceNodes: what the bytes were scaled from; bytes absent when scaled, so that
          // descriptions of runs from before the choice existed hash as they did.
          trace: {
            kind: 'swim',
            trace: record.trace,
            sha256: record.sourceSha256,
            sourceNodes,
            ...(bytes === 'recorded' ? { bytes } : {}),
          },
        };
      },
    };
  },
};

/** Absent: scaled. A value the CLI would have refused is refused here too (the API takes any string). */
function swimBytesOf(value: string | undefined): SwimBytes {
  if (value === undefined) return 'scaled';
  const bytes = SWIM_BYTES.find((b) => b === value);
  if (bytes === undefined) throw new UserError(`--${SWIM_BYTES_FLAG} ${value}: expected ${SWIM_BYTES.join(' or ')}`);
  return bytes;
}
