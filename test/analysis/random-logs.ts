/**
 * Random but plausible runs for property tests: a seeded simulation of the proxy (concurrent
 * operations, retry correlation per dependency and fingerprint, every fault's own trigger, held
 * latency operations, lost responses, MCP successes without a status, oversized requests, the
 * odd upstream error), with a random scenario of either schema. `wild` then damages the log the
 * way a hand-edited or foreign file could be (events out of order or duplicated, retries of
 * unknown operations, a second success, an id observed twice, …), every line still valid.
 */
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import type { AgentChaosEvent } from "../../src/events/types.js";
import { EVENT_COMPONENT } from "../../src/events/types.js";
import type { LegacyScenario, LegacyTarget } from "../../src/scenario/legacy/types.js";
import { compileTarget } from "../../src/scenario/target.js";
import type {
  CheckMode,
  Expectation,
  Fault,
  HttpDependency,
  OccurrenceTrigger,
  Scenario,
  Target,
} from "../../src/scenario/types.js";
import { createTriggerState } from "../../src/triggers/index.js";

type Random = () => number;

export function seeded(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (random: Random, p: number): boolean => random() < p;
const HASH = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const PATHS = ["/a/1", "/a/2", "/b/x", "/c", ""];
/** With check scopes drawn too: a model call, which duplicate_writes leaves out by default. */
const SCOPED_PATHS = [...PATHS, "/v1/chat/completions"];
const TARGET_PATHS = ["/a/*", "/b/*", "/*", "/c"];

function randomTrigger(random: Random): OccurrenceTrigger {
  if (chance(random, 0.5)) {
    const occurrences = [
      ...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => 1 + Math.floor(random() * 10))),
    ];
    return { kind: "occurrence_schedule", occurrences: occurrences.sort((a, b) => a - b) };
  }
  const millionths = 200_000 + Math.floor(random() * 600_000);
  const start = 1 + Math.floor(random() * 3);
  return {
    kind: "seeded_probability",
    probability: millionths / 1_000_000,
    probabilityMillionths: millionths,
    seed: BigInt(Math.floor(random() * 2 ** 40)),
    window: { startOccurrence: start, endOccurrence: start + Math.floor(random() * 10) },
  };
}

function randomTarget(random: Random): LegacyTarget {
  return { method: pick(random, [null, "GET", "POST"]), path: pick(random, TARGET_PATHS) };
}

function dependencyV2(name: string): HttpDependency {
  return {
    name,
    type: "http",
    baseUrl: "http://127.0.0.1:8001",
    start: null,
    urlEnv: null,
    protocol: "http",
    ignoreJsonFields: [],
    usesPortPlaceholder: false,
  };
}

const FAULT_TYPES = [
  "http_error",
  "http_rate_limit",
  "http_malformed_json",
  "http_disconnect",
  "http_latency",
  "http_response_lost",
] as const;

function randomScenario(random: Random, scoped: boolean): Scenario {
  const dependencies = chance(random, 0.5) ? ["api"] : ["api", "llm"];
  const faults: Fault[] = Array.from({ length: Math.floor(random() * 4) }, (_, i) => {
    const type = pick(random, FAULT_TYPES);
    const base = {
      id: `f${i + 1}`,
      dependency: pick(random, dependencies),
      target: { kind: "http", ...randomTarget(random) } as Target,
      trigger: randomTrigger(random),
      expect: pick(random, ["recover", "recover", "give_up", "handle"] as Expectation[]),
    };
    switch (type) {
      case "http_error":
        return { ...base, type, statusCode: 503 };
      case "http_rate_limit":
        return { ...base, type, retryAfterSeconds: 1 };
      case "http_latency":
        return { ...base, type, latencyMs: 100, jitterMs: null, jitterSeed: null };
      default:
        return { ...base, type };
    }
  });
  const mode = (): CheckMode => pick(random, ["off", "report", "enforce"] as CheckMode[]);
  const scope = (): string[] | null =>
    !scoped || chance(random, 0.6)
      ? null
      : [
          pick(
            random,
            dependencies.map((dependency) => dependencyV2(dependency).name),
          ),
        ];
  return {
    schemaVersion: 2,
    name: "random",
    dependencies: dependencies.map(dependencyV2),
    workload: { command: ["node", "agent.mjs"], cwd: "/tmp", env: {}, name: "agent" },
    faults,
    recovery: chance(random, 0.5) ? "chain" : "fifo",
    checks: {
      retry_after: { mode: mode(), dependencies: scope() },
      retry_storm: {
        mode: mode(),
        maxAttempts: 1 + Math.floor(random() * 4),
        minGapMs: Math.floor(random() * 200),
        dependencies: scope(),
      },
      duplicate_writes: scoped
        ? {
            mode: mode(),
            dependencies: scope(),
            methods: chance(random, 0.7) ? ["POST", "PATCH"] : ["PATCH"],
            paths: chance(random, 0.7) ? null : [pick(random, TARGET_PATHS)],
          }
        : { mode: mode(), dependencies: null, methods: ["POST", "PATCH"], paths: null },
      // Off, drawing nothing: the recorded analyses of these logs stay as they were.
      fail_fast: { mode: "off", maxMs: 30000 },
      cancellation: { mode: "off" },
    },
    success: { exitCode: chance(random, 0.8) ? 0 : 1 },
    timeoutSeconds: 60,
    sourcePath: "/tmp/scenario.yaml",
  };
}

function randomScenarioV1(random: Random): LegacyScenario {
  const roll = random();
  return {
    schemaVersion: 1,
    name: "random",
    dependency: { type: "http", baseUrl: "http://127.0.0.1:8001", start: null },
    workload: { command: ["node", "agent.js"], cwd: "/tmp", env: {}, name: "agent", proxyUrlEnv: null },
    fault:
      roll < 0.15
        ? null
        : {
            type: "http_error",
            statusCode: 503,
            target: randomTarget(random),
            trigger: randomTrigger(random),
          },
    success: { exitCode: chance(random, 0.8) ? 0 : 1 },
    timeoutSeconds: 60,
    sourcePath: "/tmp/scenario.yaml",
  };
}

interface Op {
  readonly id: string;
  readonly dependency: string;
  readonly method: string;
  readonly path: string;
  readonly fingerprint: string;
  readonly protocol: "http" | "mcp";
  readonly keyHash: string | null;
  injected: Fault["type"] | null;
  retry: boolean;
  held: boolean;
}

interface Armed {
  readonly id: string;
  readonly type: Fault["type"];
  readonly dependency: string;
  readonly parameters: Record<string, number>;
  readonly matches: (op: Op) => boolean;
  readonly decide: () => boolean;
}

const ORIGIN = "2026-11-29T18:38:21.000Z";
const ORIGIN_DAY = ORIGIN.slice(0, 11);
const ORIGIN_MS_OF_DAY = Date.parse(ORIGIN) - Date.parse(`${ORIGIN_DAY}00:00:00.000Z`);
const DAY_MS = 86_400_000;

/**
 * `new Date(ORIGIN + elapsed).toISOString()`, written out by hand while the time stays on the
 * origin's day: formatting a Date costs microseconds, and the property tests stamp millions of events.
 */
function timestampAt(elapsed: number): string {
  const ms = ORIGIN_MS_OF_DAY + elapsed;
  if (!Number.isInteger(elapsed) || elapsed < 0 || ms >= DAY_MS) {
    return new Date(Date.parse(ORIGIN) + elapsed).toISOString();
  }
  const two = (value: number) => String(value).padStart(2, "0");
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${ORIGIN_DAY}${two(hours)}:${two(minutes)}:${two(seconds)}.${String(ms % 1000).padStart(3, "0")}Z`;
}

/**
 * A random scenario and the events of one simulated run of it. `scoped: false` draws no check
 * scopes and no model calls: the runs whose analyses are recorded (recorded-analyses.test.ts).
 */
export function randomRun(
  seed: number,
  schema: 1 | 2,
  wild: boolean,
  scoped = true,
): { scenario: LegacyScenario | Scenario; events: (LegacyEvent | AgentChaosEvent)[] } {
  const random = seeded(seed);
  const scenario = schema === 1 ? randomScenarioV1(random) : randomScenario(random, scoped);
  const v2 = schema === 2;
  const dependencies = scenario.schemaVersion === 2 ? scenario.dependencies.map((d) => d.name) : ["api"];
  const armed: Armed[] =
    scenario.schemaVersion === 2
      ? scenario.faults.map((fault) => {
          const matches = compileTarget(fault.target);
          const trigger = createTriggerState(fault.trigger);
          return {
            id: fault.id,
            type: fault.type,
            dependency: fault.dependency,
            parameters:
              fault.type === "http_error"
                ? { status_code: 503 }
                : fault.type === "http_rate_limit"
                  ? { retry_after_seconds: 1 }
                  : fault.type === "http_latency"
                    ? { latency_ms: 100 }
                    : {},
            matches: (op: Op) => op.dependency === fault.dependency && matches(op),
            decide: () => trigger.decide(),
          };
        })
      : scenario.fault === null
        ? []
        : [
            (() => {
              const fault = scenario.fault;
              const matches = compileTarget({ kind: "http", ...fault.target });
              const trigger = createTriggerState(fault.trigger);
              return {
                id: "",
                type: "http_error" as const,
                dependency: "api",
                parameters: { status_code: 503 },
                matches: (op: Op) => matches(op),
                decide: () => trigger.decide(),
              };
            })(),
          ];

  const events: (LegacyEvent | AgentChaosEvent)[] = [];
  let elapsed = 0;
  let counter = 0;
  const emit = (payload: Record<string, unknown> & { kind: string }) => {
    events.push({
      schema_version: schema,
      event_id: `00000000-0000-4000-8000-${String(events.length).padStart(12, "0")}`,
      run_id: "run",
      sequence: events.length + 1,
      timestamp: timestampAt(elapsed),
      elapsed_ms: elapsed,
      type: payload.kind,
      component: EVENT_COMPONENT[payload.kind as keyof typeof EVENT_COMPONENT],
      payload,
    } as unknown as AgentChaosEvent);
  };

  const open: Op[] = [];
  const closed: Op[] = [];
  const queues = new Map<string, { id: string; retries: number }[]>();
  const pendingRetry = new Map<string, { id: string; retries: number }>();
  const queueKey = (op: Op) => `${op.dependency}\n${op.fingerprint}`;

  const close = (op: Op) => {
    open.splice(open.indexOf(op), 1);
    closed.push(op);
  };
  const failed = (
    op: Op,
    kind: string,
    status: number | null,
    extra: { retryAfterMs?: number | null; upstream?: number | null } = {},
  ) => {
    const faultRelated = op.injected !== null;
    emit(
      v2
        ? {
            kind: "OPERATION_FAILED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            failure_kind: kind,
            status_code: status,
            fault_related: faultRelated,
            retry_after_ms: extra.retryAfterMs ?? null,
            upstream_status: extra.upstream ?? null,
            rpc_error_code: null,
            relayed_events: null,
          }
        : {
            kind: "OPERATION_FAILED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            failure_kind: kind,
            status_code: status,
            fault_related: faultRelated,
          },
    );
    pendingRetry.delete(op.id);
    if (faultRelated) {
      const queue = queues.get(queueKey(op)) ?? [];
      queue.push({ id: op.id, retries: 0 });
      queues.set(queueKey(op), queue);
    }
    close(op);
  };
  const succeeded = (op: Op, status: number | null) => {
    emit(
      v2
        ? {
            kind: "OPERATION_SUCCEEDED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            status_code: status,
            duration_ms: 1,
            fault_related: op.injected !== null || op.retry,
            relayed_events: null,
            closed_by_client: false,
          }
        : {
            kind: "OPERATION_SUCCEEDED",
            operation_id: op.id,
            fingerprint: op.fingerprint,
            status_code: status ?? 200,
            duration_ms: 1,
            fault_related: op.injected !== null || op.retry,
          },
    );
    const entry = pendingRetry.get(op.id);
    pendingRetry.delete(op.id);
    if (entry !== undefined) {
      const queue = queues.get(queueKey(op));
      const index = queue?.indexOf(entry) ?? -1;
      if (queue !== undefined && index >= 0) queue.splice(index, 1);
    }
    close(op);
  };

  emit({ kind: "RUN_STARTED", scenario_name: "random" });
  for (const name of dependencies)
    emit(
      v2
        ? {
            kind: "INJECTOR_STARTED",
            dependency: name,
            proxy_url: "http://127.0.0.1:9",
            upstream_url: "http://127.0.0.1:8001",
          }
        : {
            kind: "INJECTOR_STARTED",
            proxy_url: "http://127.0.0.1:9",
            upstream_url: "http://127.0.0.1:8001",
          },
    );
  emit({ kind: "WORKLOAD_STARTED", name: "agent", pid: 7 });

  const steps = 10 + Math.floor(random() * 140);
  const concurrency = 1 + Math.floor(random() * 5);
  for (let step = 0; step < steps || open.length > 0; step++) {
    elapsed += chance(random, 0.1) ? Math.floor(random() * 1500) : Math.floor(random() * 40);
    if (step < steps && (open.length === 0 || (open.length < concurrency && chance(random, 0.55)))) {
      const method = pick(random, ["GET", "GET", "POST", "PATCH"]);
      const path = pick(random, scoped ? SCOPED_PATHS : PATHS);
      const op: Op = {
        id: `op-${++counter}`,
        dependency: pick(random, dependencies),
        method,
        path,
        fingerprint: `fp-${method}-${path}-${Math.floor(random() * 2)}`,
        protocol: v2 && chance(random, 0.05) ? "mcp" : "http",
        keyHash: v2 && chance(random, 0.3) ? pick(random, ["k1", "k2"]) : null,
        injected: null,
        retry: false,
        held: false,
      };
      open.push(op);
      emit(
        v2
          ? {
              kind: "OPERATION_OBSERVED",
              operation_id: op.id,
              dependency: op.dependency,
              protocol: op.protocol,
              method,
              path,
              query_hash: op.protocol === "mcp" ? null : HASH,
              body_hash: HASH,
              fingerprint: op.fingerprint,
              session: null,
              idempotency_key_hash: op.keyHash,
            }
          : {
              kind: "OPERATION_OBSERVED",
              operation_id: op.id,
              protocol: "http",
              method,
              path,
              query_hash: HASH,
              body_hash: HASH,
              fingerprint: op.fingerprint,
            },
      );
      if (chance(random, 0.04)) {
        failed(op, "request_body_too_large", 413);
        continue;
      }
      const twin = open.find((other) => other !== op && other.held && queueKey(other) === queueKey(op));
      if (twin !== undefined) failed(twin, "client_timeout_inferred", null);
      const oldest = queues.get(queueKey(op))?.[0];
      if (oldest !== undefined) {
        oldest.retries += 1;
        op.retry = true;
        pendingRetry.set(op.id, oldest);
        emit({
          kind: "RETRY_OBSERVED",
          operation_id: op.id,
          retry_of_operation_id: oldest.id,
          fingerprint: op.fingerprint,
          attempt: oldest.retries + 1,
        });
      }
      let chosen: Armed | null = null;
      const outvoted: Armed[] = [];
      for (const fault of armed) {
        if (!fault.matches(op) || !fault.decide()) continue;
        if (chosen === null) chosen = fault;
        else outvoted.push(fault);
      }
      if (chosen !== null) {
        op.injected = chosen.type;
        emit(
          v2
            ? {
                kind: "FAULT_INJECTED",
                operation_id: op.id,
                fault_id: chosen.id,
                fault_type: chosen.type,
                parameters: chosen.parameters,
              }
            : {
                kind: "FAULT_INJECTED",
                operation_id: op.id,
                fault_type: chosen.type,
                parameters: chosen.parameters,
              },
        );
      }
      for (const fault of outvoted)
        if (v2)
          emit({
            kind: "FAULT_NOT_APPLIED",
            operation_id: op.id,
            fault_id: fault.id,
            reason: "another_fault_acted",
          });
      switch (chosen?.type) {
        case "http_error":
          failed(op, "injected_http_error", 503);
          break;
        case "http_rate_limit":
          failed(op, "injected_rate_limit", 429, { retryAfterMs: 1000 });
          break;
        case "http_malformed_json":
          failed(op, "injected_malformed_json", 200);
          break;
        case "http_disconnect":
          failed(op, "injected_disconnect", null);
          break;
        case "http_latency":
          op.held = true;
          break;
        default:
          break;
      }
      continue;
    }
    if (open.length === 0) continue;
    const op = pick(random, open);
    if (op.injected === "http_response_lost") {
      failed(op, "injected_response_lost", null, { upstream: pick(random, [200, 201, 500]) });
      continue;
    }
    const roll = random();
    if (roll < 0.75) succeeded(op, op.protocol === "mcp" ? null : pick(random, [200, 200, 201, 304]));
    else if (roll < 0.9) failed(op, "upstream_http_error", pick(random, [500, 503, 404]));
    else if (roll < 0.95) failed(op, "proxy_error", 502);
    else failed(op, "client_disconnected", null);
  }
  elapsed += 5;
  const ending = random();
  if (ending < 0.03) emit({ kind: "RUN_ERROR", reason_code: "INTERNAL_ERROR", message: "boom" });
  if (ending > 0.04)
    emit({
      kind: "WORKLOAD_COMPLETED",
      exit_code: chance(random, 0.85) ? 0 : 1,
      timed_out: chance(random, 0.03),
      interrupted: chance(random, 0.03),
      duration_ms: elapsed,
      error: null,
    });

  if (wild) damage(events, random, closed);
  return { scenario, events };
}

/** Damages a log in ways the recorder never writes; every line stays a valid event. */
function damage(events: (LegacyEvent | AgentChaosEvent)[], random: Random, ops: readonly Op[]): void {
  const times = 1 + Math.floor(random() * 3);
  const anyId = () => (ops.length === 0 || chance(random, 0.1) ? "op-unknown" : pick(random, ops).id);
  const at = () => Math.floor(random() * (events.length + 1));
  const template = (kind: string) => events.find((event) => event.type === kind);
  const copy = (event: LegacyEvent | AgentChaosEvent, payload: Record<string, unknown>) =>
    ({ ...event, payload: { ...event.payload, ...payload } }) as AgentChaosEvent;
  for (let i = 0; i < times; i++) {
    const roll = random();
    const position = at();
    if (roll < 0.12 && events.length > 2) {
      const a = Math.floor(random() * events.length);
      const b = Math.floor(random() * events.length);
      const [x, y] = [events[a], events[b]];
      if (x && y) [x.sequence, y.sequence] = [y.sequence, x.sequence];
      return;
    }
    if (roll < 0.2 && events.length > 2) {
      const index = 1 + Math.floor(random() * (events.length - 1));
      (events[index] as AgentChaosEvent).sequence = (events[index - 1] as AgentChaosEvent).sequence;
      return;
    }
    let inserted: AgentChaosEvent | null = null;
    const retry = template("RETRY_OBSERVED");
    const success = template("OPERATION_SUCCEEDED");
    const observed = template("OPERATION_OBSERVED");
    const failure = template("OPERATION_FAILED");
    const injected = template("FAULT_INJECTED");
    if (roll < 0.35 && retry)
      inserted = copy(retry, { operation_id: anyId(), retry_of_operation_id: anyId() });
    else if (roll < 0.5 && success) inserted = copy(success, { operation_id: anyId() });
    else if (roll < 0.6 && observed) inserted = copy(observed, { operation_id: anyId() });
    else if (roll < 0.7 && failure)
      inserted = copy(failure, {
        operation_id: anyId(),
        failure_kind: pick(random, [
          "request_body_too_large",
          "injected_http_error",
          failure.schema_version === 2 ? "injected_response_lost" : "client_disconnected",
        ]),
        fault_related: chance(random, 0.5),
      });
    else if (roll < 0.8 && injected)
      inserted = copy(injected, {
        operation_id: anyId(),
        ...("fault_id" in injected.payload ? { fault_id: pick(random, ["f1", "f2", "zz"]) } : {}),
      });
    else if (events.length > 3) {
      events.splice(1 + Math.floor(random() * (events.length - 1)), 1);
    }
    if (inserted !== null) events.splice(position, 0, inserted);
    events.forEach((event, index) => {
      event.sequence = index + 1;
    });
  }
}
