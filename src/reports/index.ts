export { reportNames, runReportQueries, runReportQuery } from './run-report.js';
export type { ReportFilter } from './run-report.js';
export { DEFAULT_TABLE_WIDTH, formatTable, markdownText, wrapText } from './format.js';
export type { TableOptions, TableStyle } from './format.js';
