/**
 * Report 4: the checks list, in registry order, each `passed` exactly when it has no findings,
 * or `null` (not evaluated, no findings) when the workload never ran (no exit code, no timeout,
 * no interruption).
 */
import { CHECK_NAMES } from "../../../checks/registry.js";
import type { ReportV4 } from "../../types-v4.js";
import type { Violations } from "../violation.js";

export function checkChecks(report: ReportV4, v: Violations): void {
  const positions = report.checks.map((check) => CHECK_NAMES.indexOf(check.name));
  v.check(
    positions.every((position, i) => i === 0 || position > (positions[i - 1] as number)),
    "check-order-invalid",
    "checks",
  );
  const { workload } = report;
  const workloadRan = workload.exit_code !== null || workload.timed_out || workload.interrupted;
  report.checks.forEach((check, index) => {
    if (check.passed === null) {
      v.check(check.findings.length === 0, "check-passed-contradicts-findings", `checks[${index}].passed`);
      v.check(!workloadRan, "check-not-evaluated-but-workload-ran", `checks[${index}].passed`);
      return;
    }
    v.check(
      check.passed === (check.findings.length === 0),
      "check-passed-contradicts-findings",
      `checks[${index}].passed`,
    );
  });
}
