/**
 * A long synthetic run shaped like the recorder's output: an agent loop with up to four
 * operations open at once (interleaved), scheduled faults whose failures are retried a little
 * later, the odd upstream error. Schema 1 (one dependency, one fault) or schema 2 (two
 * dependencies, one fault each, chain recovery). Decisions come from a seeded generator; event
 * ids are random. `writeLongRun` writes a run folder as a run killed before its report leaves it
 * (scenario.yaml and events.jsonl).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { RunBuilder } from "./events.js";
import { RunBuilderV2 } from "./events-v2.js";

const CONCURRENCY = 4;
const LLM_PATH = "/v1/chat/completions";

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const steps = (from: number, step: number, count: number): number[] =>
  Array.from({ length: count }, (_, index) => from + index * step);

const SCHEDULES: Readonly<Record<1 | 2, Readonly<Record<string, readonly number[]>>>> = {
  1: { llm: steps(40, 40, 40) },
  2: { llm: steps(30, 30, 40), tools: steps(20, 20, 40) },
};

/** The scenario of a long run (YAML). */
export function longRunScenario(schema: 1 | 2): string {
  const list = (values: readonly number[] | undefined) => `[${(values ?? []).join(", ")}]`;
  if (schema === 1) {
    return `schema_version: 1
name: long-run
dependency:
  type: http
  base_url: http://127.0.0.1:19190
workload:
  name: long-agent
  command: [node, agent.mjs]
fault:
  type: http_error
  target: {method: POST, path: ${LLM_PATH}}
  trigger: {occurrences: ${list(SCHEDULES[1].llm)}}
  status_code: 503
success:
  exit_code: 0
timeout_seconds: 7200
`;
  }
  return `schema_version: 2
name: long-run-two-dependencies
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
    target: {method: POST, path: ${LLM_PATH}}
    trigger: {occurrences: ${list(SCHEDULES[2].llm)}}
    retry_after_seconds: 1
  - id: tools-503
    dependency: tools
    type: http_error
    target: {path: /customer/*}
    trigger: {occurrences: ${list(SCHEDULES[2].tools)}}
    status_code: 503
recovery: chain
success:
  exit_code: 0
timeout_seconds: 7200
`;
}

interface Operation {
  readonly id: string;
  readonly dependency: string;
  readonly method: string;
  readonly path: string;
  readonly fingerprint: string;
  readonly retryOf: string | null;
}

/** The events.jsonl text of a run of about `target` events. */
export function longRunEvents(schema: 1 | 2, target: number): string {
  const random = seeded(schema * 7919);
  const v1 = new RunBuilder({ scenarioName: "long-run" });
  const v2 = new RunBuilderV2();
  const dependencies = schema === 1 ? ["llm"] : ["llm", "tools"];
  let count = 0;
  let elapsed = 0;
  if (schema === 1) v1.setup();
  else v2.setup(dependencies);
  const at = (): { v1: RunBuilder; v2: RunBuilderV2 } => {
    count += 1;
    return { v1: v1.at(elapsed), v2: v2.at(elapsed) };
  };
  const counters = new Map<string, number>();
  const open: Operation[] = [];
  const retries: { due: number; operation: Operation }[] = [];
  let next = 1;

  const observe = (operation: Operation): void => {
    const options = { method: operation.method, path: operation.path };
    if (schema === 1) at().v1.observed(operation.id, operation.fingerprint, options);
    else
      at().v2.observed(operation.id, operation.fingerprint, { ...options, dependency: operation.dependency });
    if (operation.retryOf === null) return;
    if (schema === 1) at().v1.retry(operation.id, operation.retryOf);
    else at().v2.retry(operation.id, operation.retryOf);
  };
  const start = (): void => {
    const due = retries[0];
    if (due !== undefined && due.due <= elapsed) {
      retries.shift();
      const retry = { ...due.operation, id: `op-${next++}`, retryOf: due.operation.id };
      observe(retry);
      open.push(retry);
      return;
    }
    const roll = random();
    const dependency = schema === 2 && roll >= 0.45 ? "tools" : "llm";
    const llmCall = dependency === "llm" && roll < 0.3;
    const path = llmCall ? LLM_PATH : `/customer/${Math.floor(random() * 500)}`;
    const operation: Operation = {
      id: `op-${next++}`,
      dependency,
      method: llmCall ? "POST" : "GET",
      path,
      fingerprint: `fp-${Math.floor(random() * 300)}`,
      retryOf: null,
    };
    observe(operation);
    const matches = dependency === "llm" ? llmCall : path.startsWith("/customer/");
    const schedule = SCHEDULES[schema][dependency];
    if (matches && schedule !== undefined) {
      const occurrence = (counters.get(dependency) ?? 0) + 1;
      counters.set(dependency, occurrence);
      if (schedule.includes(occurrence)) {
        const limit = schema === 2 && dependency === "llm";
        if (schema === 1) {
          at().v1.injected(operation.id);
          at().v1.failed(operation.id, "injected_http_error");
        } else if (limit) {
          at().v2.injected(operation.id, "llm-overloaded", "http_rate_limit", { retry_after_seconds: 1 });
          at().v2.failed(operation.id, "injected_rate_limit", { retryAfterMs: 1000 });
        } else {
          at().v2.injected(operation.id, "tools-503");
          at().v2.failed(operation.id, "injected_http_error");
        }
        retries.push({ due: elapsed + (limit ? 1050 : 150), operation });
        return;
      }
    }
    open.push(operation);
  };
  const finish = (): void => {
    const [operation] = open.splice(Math.floor(random() * open.length), 1);
    if (operation === undefined) return;
    const related = operation.retryOf !== null;
    if (!related && random() < 0.001) {
      if (schema === 1) at().v1.failed(operation.id, "upstream_http_error");
      else at().v2.failed(operation.id, "upstream_http_error");
    } else if (schema === 1) at().v1.succeeded(operation.id, { faultRelated: related });
    else at().v2.succeeded(operation.id, { faultRelated: related });
  };

  for (let step = 0; count < target - open.length - 1 || retries.length > 0; step++) {
    if (step % 3 === 0) elapsed += 1;
    if (open.length === 0 || (open.length < CONCURRENCY && random() < 0.5)) start();
    else finish();
  }
  while (open.length > 0) finish();
  elapsed += 5;
  if (schema === 1) return v1.at(elapsed).workloadCompleted().jsonl();
  return v2.at(elapsed).workloadCompleted().jsonl();
}

/** A run folder of a long run killed before its report: scenario.yaml and events.jsonl. */
export async function writeLongRun(folder: string, schema: 1 | 2, target: number): Promise<void> {
  await writeFile(join(folder, "scenario.yaml"), longRunScenario(schema));
  await writeFile(join(folder, "events.jsonl"), longRunEvents(schema, target));
}
