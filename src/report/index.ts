/** The report stage: schemas, builder, writer, strict reader and the summary. */
export { type BuildReportInput, buildReport } from "./build.js";
export { REPORT_ERROR_MESSAGES, ReportError, type ReportErrorCode } from "./errors.js";
export { readReport, validateReport } from "./reader.js";
export { renderSummary } from "./summary.js";
export type * from "./types.js";
export { serializeReport, writeReport } from "./writer.js";
