// A long run's events.jsonl, written synthetically but shaped like the recorder's: an agent
// loop of about a million operations over an hour (model calls, tool calls; up to CONCURRENCY
// open at once, interleaved), scheduled faults whose failures the agent retries after the
// asked-for wait, the odd upstream error. Schema 1 (one dependency, one fault) or schema 2 (two
// dependencies, one fault each, recovery chain, default checks). Decisions seeded, ids random; streamed
// to disk so the generator itself stays small. Returns { events, operations }. `faultSpacing`
// (default 5,000) is how many matching calls lie between two scheduled faults: a shorter log (the
// tests write 50,000 events) needs a shorter one for every scheduled fault to be reached.
import { randomUUID } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

const HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const CONCURRENCY = 6;
const RUN_ID = "20261201T010000Z-1a2b3c4d";
const ORIGIN = Date.parse("2026-12-01T01:00:00.000Z");
const COMPONENT = {
  RUN_STARTED: "orchestrator",
  RUN_COMPLETED: "orchestrator",
  RUN_ERROR: "orchestrator",
  DEPENDENCY_STARTED: "dependency",
  DEPENDENCY_READY: "dependency",
  DEPENDENCY_STOPPED: "dependency",
  INJECTOR_STARTED: "injector",
  WORKLOAD_STARTED: "workload",
  WORKLOAD_COMPLETED: "workload",
};

function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function steps(from, step, count) {
  return Array.from({ length: count }, (_, i) => from + i * step);
}

const FAULT_SPACING = 5000;
const FAULTS = 60;

/** The occurrences each dependency's fault is scheduled at. */
function schedules(schema, spacing = FAULT_SPACING) {
  const every = (share) => Math.max(1, Math.round(spacing * share));
  if (schema === 1) return { llm: steps(every(1), every(1), FAULTS) };
  return { llm: steps(every(0.8), every(0.8), FAULTS), tools: steps(every(0.6), every(0.6), FAULTS) };
}

/** The scenario the log belongs to (YAML text). */
export function longRunScenario(schema, { faultSpacing } = {}) {
  const schedule = schedules(schema, faultSpacing);
  const list = (values) => `[${values.join(", ")}]`;
  if (schema === 1) {
    return `schema_version: 1
name: million-operations
dependency:
  type: http
  base_url: http://127.0.0.1:19190
workload:
  name: long-agent
  command: [node, agent.mjs]
fault:
  type: http_error
  target: {method: POST, path: /v1/chat/completions}
  trigger: {occurrences: ${list(schedule.llm)}}
  status_code: 503
success:
  exit_code: 0
timeout_seconds: 7200
`;
  }
  return `schema_version: 2
name: million-operations-two-dependencies
dependencies:
  llm: {type: http, base_url: "http://127.0.0.1:19191"}
  tools: {type: http, base_url: "http://127.0.0.1:19192"}
workload:
  name: long-agent
  command: [node, agent.mjs]
faults:
  - id: llm-overloaded
    dependency: llm
    type: http_rate_limit
    target: {method: POST, path: /v1/chat/completions}
    trigger: {occurrences: ${list(schedule.llm)}}
    retry_after_seconds: 1
  - id: tools-503
    dependency: tools
    type: http_error
    target: {path: /customer/*}
    trigger: {occurrences: ${list(schedule.tools)}}
    status_code: 503
recovery: chain
success:
  exit_code: 0
timeout_seconds: 7200
`;
}

/** Writes about `target` events of a schema-`schema` run to `path`. */
export function writeLongLog(path, { schema, target, faultSpacing }) {
  const next = random(schema * 7919);
  const hex = (digits) => {
    let text = "";
    while (text.length < digits)
      text += Math.floor(next() * 0x100000000)
        .toString(16)
        .padStart(8, "0");
    return text.slice(0, digits);
  };
  const uuid = randomUUID;
  const fd = openSync(path, "w");
  let chunk = "";
  let sequence = 0;
  let elapsed = 0;
  let stampedAt = -1;
  let stamp = "";
  const emit = (payload) => {
    sequence += 1;
    if (elapsed !== stampedAt) {
      stampedAt = elapsed;
      stamp = new Date(ORIGIN + elapsed).toISOString();
    }
    // The envelope in documented order, as the recorder writes it.
    chunk += `{"schema_version":${schema},"event_id":"${randomUUID()}","run_id":"${RUN_ID}","sequence":${sequence},"timestamp":"${stamp}","elapsed_ms":${elapsed},"type":"${payload.kind}","component":"${COMPONENT[payload.kind] ?? "proxy"}","payload":${JSON.stringify(payload)}}\n`;
    if (chunk.length > 4_000_000) {
      writeSync(fd, chunk);
      chunk = "";
    }
  };
  const v2 = schema === 2;
  const dependencies = v2 ? ["llm", "tools"] : ["llm"];
  const scheduleOf = schedules(schema, faultSpacing);
  const counters = Object.fromEntries(dependencies.map((name) => [name, 0]));
  const scheduled = Object.fromEntries(dependencies.map((name) => [name, new Set(scheduleOf[name] ?? [])]));
  const fingerprints = Array.from({ length: 512 }, () => hex(64));

  emit({
    kind: "RUN_STARTED",
    scenario_name: v2 ? "million-operations-two-dependencies" : "million-operations",
  });
  for (const [index, name] of dependencies.entries()) {
    const proxy = `http://127.0.0.1:${41000 + index}`;
    const upstream = `http://127.0.0.1:${19191 + index - (v2 ? 0 : 1)}`;
    emit(
      v2
        ? { kind: "INJECTOR_STARTED", dependency: name, proxy_url: proxy, upstream_url: upstream }
        : { kind: "INJECTOR_STARTED", proxy_url: proxy, upstream_url: upstream },
    );
  }
  emit({ kind: "WORKLOAD_STARTED", name: "long-agent", pid: 4242 });

  const open = [];
  const retries = [];
  let operations = 0;
  const observe = (op) => {
    operations += 1;
    emit(
      v2
        ? {
            kind: "OPERATION_OBSERVED",
            operation_id: op.id,
            dependency: op.dependency,
            protocol: "http",
            method: op.method,
            path: op.path,
            query_hash: HASH,
            body_hash: HASH,
            fingerprint: op.fingerprint,
            session: null,
            idempotency_key_hash: null,
          }
        : {
            kind: "OPERATION_OBSERVED",
            operation_id: op.id,
            protocol: "http",
            method: op.method,
            path: op.path,
            query_hash: HASH,
            body_hash: HASH,
            fingerprint: op.fingerprint,
          },
    );
  };
  const fail = (op, failureKind, status, faultRelated, retryAfterMs) =>
    emit(
      v2
        ? {
            kind: "OPERATION_FAILED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            failure_kind: failureKind,
            status_code: status,
            fault_related: faultRelated,
            retry_after_ms: retryAfterMs,
            upstream_status: null,
            rpc_error_code: null,
            relayed_events: null,
          }
        : {
            kind: "OPERATION_FAILED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            failure_kind: failureKind,
            status_code: status,
            fault_related: faultRelated,
          },
    );
  const succeed = (op) =>
    emit(
      v2
        ? {
            kind: "OPERATION_SUCCEEDED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            status_code: 200,
            duration_ms: elapsed - op.started,
            fault_related: op.retryOf !== null,
            relayed_events: null,
            closed_by_client: false,
          }
        : {
            kind: "OPERATION_SUCCEEDED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            status_code: 200,
            duration_ms: elapsed - op.started,
            fault_related: op.retryOf !== null,
          },
    );

  const start = () => {
    const due = retries[0];
    if (due !== undefined && due.at <= elapsed) {
      retries.shift();
      const op = { ...due.op, id: uuid(), started: elapsed, retryOf: due.op.id };
      observe(op);
      emit({
        kind: "RETRY_OBSERVED",
        operation_id: op.id,
        retry_of_operation_id: due.op.id,
        fingerprint: op.fingerprint,
        attempt: 2,
      });
      open.push(op);
      return;
    }
    const roll = next();
    const dependency = v2 && roll >= 0.4 ? "tools" : "llm";
    const method = dependency === "llm" || roll < 0.66 ? (dependency === "llm" ? "POST" : "GET") : "POST";
    const path =
      dependency === "llm" && (!v2 || roll < 0.4) && roll < 0.34
        ? "/v1/chat/completions"
        : method === "GET"
          ? `/customer/${Math.floor(next() * 5000)}`
          : "/tools/search";
    const op = {
      id: uuid(),
      dependency,
      method,
      path,
      fingerprint: fingerprints[Math.floor(next() * fingerprints.length)],
      started: elapsed,
      retryOf: null,
    };
    observe(op);
    const matches = dependency === "llm" ? path === "/v1/chat/completions" : path.startsWith("/customer/");
    if (matches && scheduleOf[dependency] !== undefined) {
      counters[dependency] += 1;
      if (scheduled[dependency].has(counters[dependency])) {
        const limit = v2 && dependency === "llm";
        emit(
          v2
            ? {
                kind: "FAULT_INJECTED",
                operation_id: op.id,
                fault_id: limit ? "llm-overloaded" : "tools-503",
                fault_type: limit ? "http_rate_limit" : "http_error",
                parameters: limit ? { retry_after_seconds: 1 } : { status_code: 503 },
              }
            : {
                kind: "FAULT_INJECTED",
                operation_id: op.id,
                fault_type: "http_error",
                parameters: { status_code: 503 },
              },
        );
        fail(
          op,
          limit ? "injected_rate_limit" : "injected_http_error",
          limit ? 429 : 503,
          true,
          limit ? 1000 : null,
        );
        retries.push({ at: elapsed + (limit ? 1050 : 150), op });
        return;
      }
    }
    open.push(op);
  };
  const finish = () => {
    const [op] = open.splice(Math.floor(next() * open.length), 1);
    if (op.retryOf === null && next() < 0.0002) fail(op, "upstream_http_error", 500, false, null);
    else succeed(op);
  };

  const tail = 4;
  for (let step = 0; sequence < target - tail - open.length || retries.length > 0; step++) {
    if (step % 4 === 0) elapsed += 1;
    if (open.length === 0 || (open.length < CONCURRENCY && next() < 0.5)) start();
    else finish();
  }
  while (open.length > 0) finish();
  elapsed += 5;
  emit({
    kind: "WORKLOAD_COMPLETED",
    exit_code: 0,
    timed_out: false,
    interrupted: false,
    duration_ms: elapsed,
    error: null,
  });
  writeSync(fd, chunk);
  closeSync(fd);
  return { events: sequence, operations };
}
