export { Store, StoreError, stringListParam } from './store.js';
export type { QueryRows, SqlParams, StatementRows, StoreOptions } from './store.js';
export { SCHEMA_VERSION } from './migrations.js';
export {
  findTrace,
  findTraceBySha256,
  insertTrace,
  listTraces,
  loadRejects,
  loadSwimJobs,
  replaceSwimTrace,
} from './traces.js';
export type { RejectRow, SwimJobRow, TraceRecord } from './traces.js';
export { coarsenedSampleRuns, latestRunOf, reserveRunIds, runAppFinishesMs, runSpecsOf, saveRun, saveRunAsItGoes, saveRuns, storedRunIds } from './runs.js';
export { recordedPreemption } from './recorded-preemption.js';
export type { RecordedPreemption } from './recorded-preemption.js';
export { recordedUnmanagedAms } from './recorded-unmanaged-ams.js';
export { exportRunRows, importRunFiles, RUN_TABLES } from './run-files.js';
export type { RunFile } from './run-files.js';
export type { RunMeta, RunToSave } from './runs.js';
export {
  deleteRmLogLinesFrom,
  countRmTrace,
  listRmLogFiles,
  loadRmTrace,
  nextRmLogFileId,
  renameRmLogFile,
  RmLogWriter,
  saveRmLogFile,
  saveRmLogFiles,
  upsertRmLogTrace,
} from './rmlog.js';
export {
  forgetRecordedSamples,
  MAX_RECORDED_QUEUE_ROWS,
  MAX_RECORDED_SAMPLES,
  recordedSamplesMissing,
  saveRecordedSamples,
} from './recorded-samples.js';
export { queueContention } from './queue-contention.js';
export type { QueueContention } from './queue-contention.js';
export { createTimelineTables, dropTimelineTables, streamTimeline, timelineFacts } from './recorded-timeline.js';
export type { RecordedSampling } from './recorded-samples.js';
export type { RmAppRow, RmContainerRow, HashFunction, RmLogFileRecord, RmNodeEventRow, RmSchedulerFacts, RmTraceRows } from './rmlog.js';
export { deleteSupersededRuns, listRuns, supersededRunCounts } from './run-catalogue.js';
export type { RunListFilter, RunListing, RunStatus } from './run-catalogue.js';
export { exportTables, foreignExportEntry } from './export.js';
export {
  claimScratchDir,
  holds,
  isDeadScratch,
  makeOwnDir,
  makeOwnTempDir,
  makeScratchDirSync,
  markerName,
  markOwnOutput,
  processAlive,
  readOwnMark,
  removeDeadScratch,
  removeOwnOutput,
  whyNotOwnOutput,
} from './own-output.js';
export type { ForeignEntry, OwnDir, OwnMark, OwnOutputCheck, OwnOutputKind, ScratchDir } from './own-output.js';
export type { ExportedTable, ExportFormat } from './export.js';
export { saveValidation } from './validations.js';
export type { ValidationAppRow, ValidationJudgement, ValidationRow } from './validations.js';
