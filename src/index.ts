/** Library entry: load scenarios, read reports, render the summary. */
export { loadScenario } from "./scenario/load.js";
export type * from "./scenario/types.js";
export { readReport } from "./report/reader.js";
export type * from "./report/types.js";
export { renderSummary } from "./report/summary.js";
export type * from "./events/types.js";
