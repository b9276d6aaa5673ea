/** Report 4: the dependencies list and its log artifacts. */
import type { ReportV4 } from "../../types-v4.js";
import { hasDuplicates, type Violations } from "../violation.js";

export function checkDependencies(report: ReportV4, v: Violations): void {
  const { dependencies } = report;
  v.check(!hasDuplicates(dependencies.map((d) => d.name)), "duplicate-dependency-name", "dependencies");
  dependencies.forEach((dependency, index) => {
    // An MCP server over stdio has no URL and is spawned by the workload, never by the run.
    const stdioValid =
      dependency.type !== "mcp_stdio" ||
      (dependency.protocol === "mcp" && dependency.base_url === null && !dependency.managed);
    v.check(stdioValid, "dependency-protocol-invalid", `dependencies[${index}]`);
  });
  const sum = (pick: (d: ReportV4["dependencies"][number]) => number) =>
    dependencies.reduce((total, dependency) => total + pick(dependency), 0);
  const agrees =
    sum((d) => d.operations_observed) === report.operations_observed &&
    sum((d) => d.failed_operations) === report.failed_operations &&
    dependencies.every((d) => d.failed_operations <= d.operations_observed);
  v.check(agrees, "dependency-operations-mismatch", "dependencies");

  const managed = dependencies.filter((d) => d.managed).map((d) => d.name);
  const logged = Object.keys(report.artifacts.dependencies);
  v.check(
    managed.length === logged.length && managed.every((name) => logged.includes(name)),
    "artifacts-dependencies-mismatch",
    "artifacts.dependencies",
  );
}
