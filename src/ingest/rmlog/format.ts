// ResourceManager logs as a trace format: the log's apps replayed as recorded (workload.ts), on
// the nodes and scheduler settings the log shows unless the user gives a cluster.

import { UserError } from '../../model/errors.js';
import { loadRmTrace, queueContention } from '../../store/index.js';
import type { LoadedTrace, TraceFormat } from '../trace-format.js';
import { RMLOG_COMMAND } from './command.js';
import { ingestRmLog } from './ingest.js';
import type { IngestRmLogOptions, IngestRmLogResult } from './ingest.js';
import { unequalSplitNote } from './queue-split-note.js';
import { buildLogWorkload } from './workload.js';

export const RMLOG_FORMAT: TraceFormat<IngestRmLogOptions, IngestRmLogResult> = {
  name: 'rmlog',
  ingestUsage: 'rmreplay ingest rmlog FILE',
  oneTrace: 'an RM log',
  traces: 'RM logs',
  settings: [],
  command: RMLOG_COMMAND,
  ingest: ingestRmLog,
  async load(store, record): Promise<LoadedTrace> {
    const log = buildLogWorkload(record.trace, await loadRmTrace(store, record.trace));
    if (log.workload.apps.length === 0) {
      throw new UserError(`trace ${record.trace} has no app that was submitted and got an AM container in the log`);
    }
    const notes = [...log.notes];
    const fair = log.scheduler.schedulerClass === 'FairScheduler';
    if (log.scheduler.schedulerClass === 'FifoScheduler') {
      notes.push('the log ran the FifoScheduler, which is not modelled: it is replayed with the CapacityScheduler (one FIFO queue)');
    }
    const contention = fair ? await queueContention(store, record.trace) : null;
    // originMs: the log time that is replay time 0.
    const trace = { kind: 'rmlog', trace: record.trace, sha256: record.sourceSha256, originMs: log.originMs } as const;
    return {
      // Carries the queues' AM limits the log prints.
      recordedCluster: log.clusterFromLog,
      clusterMissing: `trace ${record.trace}: ${[...log.notes, ...log.clusterNotes].join('; ')}; pass --cluster FILE`,
      notes,
      recorded: {
        workload: log.workload,
        apps: log.recorded,
        originMs: log.originMs,
        cluster: log.clusterFromLog,
        nodeTimeline: log.nodeTimeline,
        schedulerClass: log.scheduler.schedulerClass,
      },
      nodeTimeline: log.nodeTimeline,
      heartbeatPhasesMs: log.heartbeatPhasesMs,
      clusterNotes: (request) => {
        const clusterNotes: string[] = [];
        const timeline = log.nodeTimeline ? ' (nor their joins and departures)' : '';
        if (request.cluster !== undefined) clusterNotes.push(`replayed on the nodes of ${request.cluster}, not the log's${timeline}`);
        else if (request.nodes !== undefined) clusterNotes.push(`replayed on --nodes ${request.nodes}, not the log's nodes${timeline}`);
        else clusterNotes.push(...log.clusterNotes);
        if (!log.printsAllocationSettings && request.cluster === undefined && request.yarnSite === undefined) {
          clusterNotes.push(
            `the log does not print the scheduler's minimum and maximum allocation${fair ? '' : ' or resource calculator'}: ` +
              "Hadoop 2.7's defaults are used (--yarn-site gives the cluster's own)",
          );
        }
        if (fair && request.fairScheduler === undefined && contention !== null) {
          const unequal = unequalSplitNote(contention);
          if (unequal !== null) clusterNotes.push(unequal);
        }
        return clusterNotes;
      },
      // Replayed as recorded whatever the cluster: the apps keep the log's sizes and timings.
      workloadFor: () => {
        return { workload: log.workload, trace };
      },
    };
  },
};

