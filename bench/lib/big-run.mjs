// A synthetic run folder with many operations (report.json schema 2, events.jsonl schema 1):
// every 10th operation gets an injected 503 and a retry that succeeds.
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const COMPONENT = {
  RUN_STARTED: "orchestrator",
  WORKLOAD_STARTED: "workload",
  WORKLOAD_COMPLETED: "workload",
  RUN_COMPLETED: "orchestrator",
};

export function writeBigRun(folder, operations) {
  const runId = "20261129T183821Z-0badc0de";
  const origin = Date.parse("2026-11-29T18:38:21.000Z");
  const lines = [];
  const emit = (elapsed, payload) => {
    const event = {
      schema_version: 1,
      event_id: randomUUID(),
      run_id: runId,
      sequence: lines.length + 1,
      timestamp: new Date(origin + elapsed).toISOString(),
      elapsed_ms: elapsed,
      type: payload.kind,
      component: COMPONENT[payload.kind] ?? "proxy",
      payload,
    };
    lines.push(JSON.stringify(event));
  };
  emit(0, { kind: "RUN_STARTED", scenario_name: "ten-thousand-operations" });
  emit(100, { kind: "WORKLOAD_STARTED", name: "load", pid: 4242 });
  let elapsed = 120;
  let count = 0;
  let injected = 0;
  const evidence = [];
  for (let index = 1; count < operations; index++) {
    const id = `op-${index}`;
    const fingerprint = `fp-${index % 97}`;
    const observed = (op) =>
      emit(elapsed, {
        kind: "OPERATION_OBSERVED",
        operation_id: op,
        protocol: "http",
        method: "GET",
        path: `/items/${index % 50}`,
        query_hash: HASH,
        body_hash: HASH,
        fingerprint,
      });
    observed(id);
    count += 1;
    if (index % 10 === 0 && count < operations) {
      injected += 1;
      emit(elapsed, {
        kind: "FAULT_INJECTED",
        operation_id: id,
        fault_type: "http_error",
        parameters: { status_code: 503 },
      });
      emit(elapsed + 1, {
        kind: "OPERATION_FAILED",
        operation_id: id,
        fingerprint,
        failure_kind: "injected_http_error",
        status_code: 503,
        fault_related: true,
      });
      const retry = `${id}-retry`;
      elapsed += 2;
      observed(retry);
      emit(elapsed, {
        kind: "RETRY_OBSERVED",
        operation_id: retry,
        retry_of_operation_id: id,
        fingerprint,
        attempt: 2,
      });
      emit(elapsed + 4, {
        kind: "OPERATION_SUCCEEDED",
        operation_id: retry,
        fingerprint,
        status_code: 200,
        duration_ms: 4,
        fault_related: false,
      });
      evidence.push({ failed_operation_id: id, retry_operation_id: retry, recovery_latency_ms: 5 });
      count += 1;
    } else {
      emit(elapsed + 3, {
        kind: "OPERATION_SUCCEEDED",
        operation_id: id,
        fingerprint,
        status_code: 200,
        duration_ms: 3,
        fault_related: false,
      });
    }
    elapsed += 1;
  }
  emit(elapsed + 10, {
    kind: "WORKLOAD_COMPLETED",
    exit_code: 0,
    timed_out: false,
    interrupted: false,
    duration_ms: elapsed,
    error: null,
  });
  emit(elapsed + 12, {
    kind: "RUN_COMPLETED",
    result: "RECOVERED",
    reason_code: "RECOVERY_OBSERVED",
    duration_ms: elapsed + 12,
  });
  writeFileSync(join(folder, "events.jsonl"), `${lines.join("\n")}\n`);
  const scheduled = Array.from({ length: injected }, (_, i) => (i + 1) * 10);
  const report = {
    schema_version: 2,
    run_id: runId,
    scenario_name: "ten-thousand-operations",
    result: "RECOVERED",
    reason_code: "RECOVERY_OBSERVED",
    duration_ms: elapsed + 12,
    faults_injected: injected,
    operations_observed: count,
    successful_operations: count - injected,
    failed_operations: injected,
    retries_observed: injected,
    workload_exit_code: 0,
    workload: { name: "load", expected_exit_code: 0, exit_code: 0, timed_out: false, interrupted: false },
    fault: {
      configured: true,
      type: "http_error",
      injected: true,
      scheduled_occurrences: scheduled,
      completed_occurrences: scheduled,
      schedule_completed: true,
    },
    recovery: { required: injected, successful: injected, evidence },
    timing: {
      started_at: new Date(origin).toISOString(),
      completed_at: new Date(origin + elapsed + 12).toISOString(),
    },
    artifacts: {
      scenario: "scenario.yaml",
      events: "events.jsonl",
      stdout: "stdout.log",
      stderr: "stderr.log",
      dependency_stdout: null,
      dependency_stderr: null,
      report: "report.json",
    },
    diagnostics: [],
  };
  writeFileSync(join(folder, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  return { operations: count, events: lines.length };
}
