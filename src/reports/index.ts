export { reportNames, runReportQueries, runReportQuery } from './run-report.js';
export type { ReportFilter } from './run-report.js';
export { formatTable } from './format.js';
export type { TableStyle } from './format.js';
