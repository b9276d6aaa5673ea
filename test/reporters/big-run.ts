/** Writes a synthetic schema-1 run folder with many operations (every 10th one injected and retried). */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { LegacyRunBuilder } from "../helpers/legacy-events.js";

export async function writeBigRun(folder: string, operations: number): Promise<void> {
  const run = new LegacyRunBuilder({ scenarioName: "many-operations" }).setup({ managedDependency: true });
  let elapsed = 200;
  let injected = 0;
  let count = 0;
  /** The ordinal (among every observed operation) of each injection, and its recovery evidence. */
  const ordinals: number[] = [];
  const evidence: { failed_operation_id: string; retry_operation_id: string; recovery_latency_ms: number }[] =
    [];
  for (let index = 1; count < operations; index++) {
    const id = `op-${index}`;
    run.at(elapsed).observed(id, `fp-${index}`, { path: `/items/${index % 50}` });
    count += 1;
    if (index % 10 === 0 && count < operations) {
      injected += 1;
      ordinals.push(count);
      run
        .at(elapsed)
        .injected(id)
        .at(elapsed + 1)
        .failed(id, "injected_http_error");
      const retry = `op-${index}-retry`;
      run.at(elapsed + 20).observed(retry, `fp-${index}`, { path: `/items/${index % 50}` });
      run
        .at(elapsed + 20)
        .retry(retry, id)
        .at(elapsed + 26)
        .succeeded(retry, { durationMs: 6 });
      count += 1;
      evidence.push({ failed_operation_id: id, retry_operation_id: retry, recovery_latency_ms: 25 });
    } else {
      run.at(elapsed + 5).succeeded(id, { durationMs: 5 });
    }
    elapsed += 3;
  }
  const events = run
    .at(elapsed + 10)
    .workloadCompleted()
    .events();
  await writeFile(join(folder, "events.jsonl"), events.map((event) => `${JSON.stringify(event)}\n`).join(""));
  // A report the strict reading accepts: the schedule is the injected ordinals, each one recovered.
  const recovered = injected > 0;
  const report = {
    schema_version: 2,
    run_id: run.runId,
    scenario_name: "many-operations",
    result: recovered ? "RECOVERED" : "FAILED",
    reason_code: recovered ? "RECOVERY_OBSERVED" : "FAULT_NOT_TRIGGERED",
    duration_ms: elapsed + 20,
    faults_injected: injected,
    operations_observed: count,
    successful_operations: count - injected,
    failed_operations: injected,
    retries_observed: injected,
    workload_exit_code: 0,
    workload: {
      name: "demo-agent",
      expected_exit_code: 0,
      exit_code: 0,
      timed_out: false,
      interrupted: false,
    },
    fault: {
      configured: true,
      type: "http_error",
      injected: recovered,
      scheduled_occurrences: recovered ? ordinals : [10],
      completed_occurrences: ordinals,
      schedule_completed: recovered,
    },
    recovery: { required: injected, successful: injected, evidence },
    timing: { started_at: events[0]?.timestamp, completed_at: events.at(-1)?.timestamp },
    artifacts: {
      scenario: "scenario.yaml",
      events: "events.jsonl",
      stdout: "stdout.log",
      stderr: "stderr.log",
      dependency_stdout: "dependency.stdout.log",
      dependency_stderr: "dependency.stderr.log",
      report: "report.json",
    },
    diagnostics: [],
  };
  await writeFile(join(folder, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
}
