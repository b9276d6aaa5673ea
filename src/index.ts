/** Library entry: load scenarios, read reports, render the summary. */

export type {
  DuplicateWriteFinding,
  Finding,
  RetryAfterFinding,
  RetryStormChainFinding,
  RetryStormFinding,
  RetryStormGapFinding,
} from "./checks/types.js";
export type * from "./events/types.js";
export type * from "./events/types-v2.js";
export { readReport } from "./report/reader.js";
export { renderSummary } from "./report/summary.js";
export type * from "./report/types.js";
export { loadScenario } from "./scenario/load.js";
export type * from "./scenario/types.js";
export type * from "./scenario/types-v2.js";
