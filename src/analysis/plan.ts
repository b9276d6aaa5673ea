/**
 * What the analysis reads of a scenario: its dependencies, its faults (each with an id, a
 * dependency, a target, a trigger and an expectation), the recovery mode, the checks and the
 * expected exit code. A schema-2 scenario is one as it is; a schema-1 scenario is converted
 * where it is read (schema-1.ts).
 */
import type { ChecksConfig, Fault, RecoveryMode } from "../scenario/types.js";

export type PlannedFault = Pick<Fault, "id" | "dependency" | "target" | "trigger" | "expect">;

/**
 * How a probability trigger's occurrences are counted. `operations` (the default): each operation
 * once, at its first OPERATION_OBSERVED, unless its first failure is `request_body_too_large`.
 * `observations`: every OPERATION_OBSERVED event, leaving out operation ids with any
 * `request_body_too_large` failure. The two differ only on logs the recorder never writes (an id
 * observed twice, a failure after another failure); schema 1 counts observations.
 */
export type OccurrenceCounting = "operations" | "observations";

export interface AnalysisPlan {
  /** In scenario order. */
  readonly dependencies: readonly { readonly name: string }[];
  /** In scenario order; none for a baseline. */
  readonly faults: readonly PlannedFault[];
  readonly recovery: RecoveryMode;
  readonly checks: ChecksConfig;
  readonly success: { readonly exitCode: number };
  readonly occurrences?: OccurrenceCounting;
}
