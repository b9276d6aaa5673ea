/**
 * The summary lines of report 5's truth keys (docs/reports.md): `Verify:` when the scenario has
 * a verify command, `Canaries seen:` when it has a corruption fault. They name faults, sinks and
 * operations only.
 */
import { describeExitCode } from "../../events/exit-status.js";
import type { Field } from "../summary-v4.js";
import type { ReportTruth } from "./truth.js";

/** `passed (exit code 0)`, `failed (exit code 1)`, `failed (timed out)`, `not run`. */
export function verifySummary(verify: ReportTruth["verify"]): string {
  if (verify == null) return "not run";
  const how = verify.timed_out
    ? "timed out"
    : verify.exit_code === null
      ? "no exit code"
      : describeExitCode(verify.exit_code);
  return `${verify.passed ? "passed" : "failed"} (${how})`;
}

/** `none`, or `wrong-price in stdout; wrong-price in shop (shop POST /orders #1)`. */
export function canariesSummary(canaries: NonNullable<ReportTruth["canaries"]>): string {
  if (canaries.length === 0) return "none";
  return canaries
    .map((seen) => `${seen.fault_id} in ${seen.sink}${seen.operation === null ? "" : ` (${seen.operation})`}`)
    .join("; ");
}

export function truthFields(report: ReportTruth): Field[] {
  const fields: Field[] = [];
  if (report.verify !== undefined) fields.push(["Verify:", verifySummary(report.verify)]);
  if (report.canaries !== undefined) fields.push(["Canaries seen:", canariesSummary(report.canaries)]);
  return fields;
}
