/** Library entry: run experiments, trials and suites, load scenarios, read reports, render the summary. */

export type {
  DuplicateWriteFinding,
  Finding,
  RetryAfterFinding,
  RetryStormChainFinding,
  RetryStormFinding,
  RetryStormGapFinding,
} from "./checks/types.js";
export type * from "./events/legacy/types.js";
export type * from "./events/types.js";
export { ExploreError } from "./explore/errors.js";
export type { ExploreProgress } from "./explore/progress.js";
export type * from "./library/deprecated-types.js";
export {
  type ExperimentResult,
  type RunExperimentOptions,
  runExperiment,
  type TrialsExperimentResult,
} from "./library/experiment.js";
export { type ExploreDone, type ExploreOptions, exploreScenario } from "./library/explore.js";
export type { ScenarioDocument, ScenarioInput } from "./library/scenario-input.js";
export { type RunTrialsOptions, runTrials, type TrialsDone } from "./library/trials.js";
export type {
  ExperimentRecord,
  ExploreDocument,
  ExploreStatus,
  ExploreSummary,
  PointRecord,
  RunRecord,
} from "./report/explore-document.js";
export { readReport } from "./report/reader.js";
export type { SuiteDocument, SuiteEntry, SuiteShard } from "./report/suite-document.js";
export { SuiteError } from "./report/suite-errors.js";
export { renderSummary } from "./report/summary.js";
export type {
  TrialClass,
  TrialOutcome,
  TrialRun,
  TrialsRecord,
  TrialsSummary,
} from "./report/trials.js";
export type * from "./report/types.js";
export type { ReporterName } from "./reporters/names.js";
export { RunFolderError } from "./runtime/run-folder.js";
export { ScenarioError } from "./scenario/errors.js";
export type * from "./scenario/legacy/types.js";
export type { LegacyParts, RunScenario } from "./scenario/legacy/upgrade.js";
export { loadScenario } from "./scenario/load.js";
export type * from "./scenario/types.js";
export { type RunSuiteOptions, runSuite } from "./suite/run-suite.js";
export type { TrialsDocument } from "./trials/document.js";
export { TrialsError } from "./trials/options.js";
