export { Store, StoreError } from './store.js';
export type { QueryRows, SqlParams } from './store.js';
export { SCHEMA_VERSION } from './schema.js';
export {
  findTrace,
  findTraceBySha256,
  listTraces,
  loadRejects,
  loadSwimJobs,
  replaceSwimTrace,
} from './traces.js';
export type { RejectRow, SwimJobRow, TraceRecord } from './traces.js';
export { reserveRunIds, saveRun, saveRuns, storedRunIds } from './runs.js';
export { exportRunRows, importRunFiles, RUN_TABLES } from './run-files.js';
export type { RunFile } from './run-files.js';
export type { RunMeta, RunToSave } from './runs.js';
export {
  deleteRmLogLinesFrom,
  countRmTrace,
  listRmLogFiles,
  loadRmTrace,
  nextRmLogFileId,
  RmLogWriter,
  saveRmLogFile,
  upsertRmLogTrace,
} from './rmlog.js';
export type { RmAppRow, RmContainerRow, RmLogFileRecord, RmNodeEventRow, RmSchedulerFacts, RmTraceRows } from './rmlog.js';
