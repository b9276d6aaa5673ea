/** Writes a synthetic schema-1 run folder with many operations (every 10th one injected and retried). */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RunBuilder } from "../helpers/events.js";

export async function writeBigRun(folder: string, operations: number): Promise<void> {
  const run = new RunBuilder({ scenarioName: "many-operations" }).setup({ managedDependency: true });
  let elapsed = 200;
  let injected = 0;
  let count = 0;
  for (let index = 1; count < operations; index++) {
    const id = `op-${index}`;
    run.at(elapsed).observed(id, `fp-${index}`, { path: `/items/${index % 50}` });
    count += 1;
    if (index % 10 === 0 && count < operations) {
      injected += 1;
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
  const report = {
    schema_version: 2,
    run_id: run.runId,
    scenario_name: "many-operations",
    result: "RECOVERED",
    reason_code: "RECOVERY_OBSERVED",
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
      injected: true,
      scheduled_occurrences: [10],
      completed_occurrences: [10],
      schedule_completed: true,
    },
    recovery: { required: 0, successful: 0, evidence: [] },
    timing: { started_at: events[0]?.timestamp, completed_at: events.at(-1)?.timestamp },
    artifacts: {},
    diagnostics: [],
  };
  await writeFile(join(folder, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
}
