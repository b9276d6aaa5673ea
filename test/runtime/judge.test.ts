import { readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AnalysisStream } from "../../src/analysis/analysis-stream.js";
import { evidenceOf } from "../../src/analysis/evidence.js";
import type { LegacyEvent } from "../../src/events/legacy/types.js";
import type { AgentChaosEvent } from "../../src/events/types.js";
import { judgeRun } from "../../src/runtime/judge.js";
import type { LegacyScenario } from "../../src/scenario/legacy/types.js";
import { toRunScenario } from "../../src/scenario/legacy/upgrade.js";
import { loadScenario } from "../../src/scenario/load.js";
import type { Scenario } from "../../src/scenario/types.js";
import { analyzeAny, streamAny } from "../analysis/any-schema.js";
import { randomRun } from "../analysis/random-logs.js";
import { ROOT } from "../helpers/cli.js";
import { schema1Source } from "../helpers/schema-1-source.js";
import { tempDir } from "../helpers/temp.js";

const text = (value: unknown) =>
  JSON.stringify(value, (_key, item) => (typeof item === "bigint" ? `${item}n` : item));

let dir: { path: string; remove: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await dir.remove();
});

type AnyEvent = LegacyEvent | AgentChaosEvent;

/** RUN_COMPLETED right after `last`, as the recorder would write it. */
function completion(
  last: AnyEvent | undefined,
  first: { result: string; reasonCode: string },
  schema: 1 | 2,
) {
  const elapsed = (last?.elapsed_ms ?? 0) + 3;
  return {
    schema_version: schema,
    event_id: "00000000-0000-4000-8000-ffffffffffff",
    run_id: "run",
    sequence: (last?.sequence ?? 0) + 1,
    timestamp: "2026-11-29T18:40:00.000Z",
    elapsed_ms: elapsed,
    type: "RUN_COMPLETED",
    component: "orchestrator",
    payload: {
      kind: "RUN_COMPLETED",
      result: first.result,
      reason_code: first.reasonCode,
      duration_ms: elapsed,
    },
  } as AnyEvent;
}

/** The judgement as the orchestrator made it before streaming: read all, analyse, complete, analyse. */
function batchJudgement(scenario: LegacyScenario | Scenario, events: AnyEvent[]) {
  const run = (list: AnyEvent[]) => analyzeAny(scenario, list);
  return run([...events, completion(events.at(-1), run(events), scenario.schemaVersion)]);
}

async function judged(scenario: LegacyScenario | Scenario, path: string, events: AnyEvent[]) {
  const calls: string[] = [];
  const hooks = {
    complete: (first: { result: string; reasonCode: string }) => {
      calls.push(`complete ${first.result}`);
      return completion(events.at(-1), first, scenario.schemaVersion) as never;
    },
    unreadable: (code: string) => {
      calls.push(`unreadable ${code}`);
      return {
        ...completion(undefined, { result: "FAILED", reasonCode: "INTERNAL_ERROR" }, scenario.schemaVersion),
        type: "RUN_ERROR",
        payload: {
          kind: "RUN_ERROR",
          reason_code: "INTERNAL_ERROR",
          message: `event stream could not be read back (${code})`,
        },
      } as never;
    },
  };
  const analysis = await judgeRun(toRunScenario(scenario), path, hooks);
  return { analysis, calls };
}

describe("judging a recorded run", () => {
  it("streams every golden schema-1 run to exactly the whole-log analysis", async () => {
    const golden = join(ROOT, "test", "fixtures", "golden");
    const names = readdirSync(golden)
      .filter((file) => file.endsWith(".events.jsonl"))
      .map((file) => file.replace(".events.jsonl", ""));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const file = name.startsWith("schema-1-")
        ? join(ROOT, "test", "fixtures", "schema-1", `${name.slice("schema-1-".length)}.yaml`)
        : join(ROOT, "examples", "scenarios", `${name}.yaml`);
      const scenario = schema1Source(await loadScenario(file));
      const lines = (await readFile(join(golden, `${name}.events.jsonl`), "utf8")).trimEnd().split("\n");
      const events = lines.map((line) => JSON.parse(line) as LegacyEvent);
      const stream = streamAny(scenario);
      expect(
        events.every((event) => stream.push(event)),
        name,
      ).toBe(true);
      expect(text(stream.result()), name).toBe(text(analyzeAny(scenario, events)));
    }
  });

  it("judges random runs read from a file as the read-all judgement did, streamed or read whole", async () => {
    const path = join(dir.path, "events.jsonl");
    for (const wild of [false, true]) {
      for (let seed = 1; seed <= 60; seed++) {
        for (const schema of [1, 2] as const) {
          const { scenario, events } = randomRun(seed * 7 + schema, schema, wild);
          await writeFile(path, events.map((event) => `${JSON.stringify(event)}\n`).join(""));
          const { analysis, calls } = await judged(scenario, path, events);
          expect(calls, `seed ${seed}`).toHaveLength(1);
          expect(text(analysis), `seed ${seed} schema ${schema} wild ${wild}`).toBe(
            text(batchJudgement(scenario, events)),
          );
        }
      }
    }
  });

  it("judges a run whose events cannot be read back on the RUN_ERROR alone", async () => {
    const path = join(dir.path, "events.jsonl");
    const { scenario, events } = randomRun(3, 1, false);
    await writeFile(path, `${events.map((event) => JSON.stringify(event)).join("\n")}\n{"not":"an event"}\n`);
    const { analysis, calls } = await judged(scenario, path, events);
    expect(calls).toEqual(["unreadable EVENTS_INVALID", "complete FAILED"]);
    expect(analysis).toMatchObject({ result: "FAILED", reasonCode: "INTERNAL_ERROR" });
    expect(analysis.metrics.operationsObserved).toBe(0);
  });

  it("holds nothing per operation once operations succeed, only the fault-related failures a retry may name", () => {
    const { scenario } = randomRun(5, 2, false);
    const stream = new AnalysisStream({ ...(scenario as Scenario), faults: [] }, { whole: false });
    let sequence = 0;
    const event = (payload: Record<string, unknown> & { kind: string }) =>
      ({
        schema_version: 2,
        event_id: "00000000-0000-4000-8000-000000000000",
        run_id: "run",
        sequence: ++sequence,
        timestamp: "2026-11-29T18:38:21.000Z",
        elapsed_ms: sequence,
        type: payload.kind,
        component: "proxy",
        payload,
      }) as unknown as AgentChaosEvent;
    for (let i = 0; i < 20_000; i++) {
      const id = `op-${i}`;
      stream.push(
        event({
          kind: "OPERATION_OBSERVED",
          operation_id: id,
          dependency: "api",
          protocol: "http",
          method: "GET",
          path: "/x",
          query_hash: "q",
          body_hash: "b",
          fingerprint: `fp-${i % 7}`,
          session: null,
          idempotency_key_hash: null,
        }),
      );
      const failed = i % 1000 === 0;
      stream.push(
        failed
          ? event({
              kind: "OPERATION_FAILED",
              operation_id: id,
              fingerprint: `fp-${i % 7}`,
              failure_kind: "upstream_http_error",
              status_code: 500,
              fault_related: true,
              retry_after_ms: null,
              upstream_status: null,
              rpc_error_code: null,
              relayed_events: null,
            })
          : event({
              kind: "OPERATION_SUCCEEDED",
              operation_id: id,
              fingerprint: `fp-${i % 7}`,
              status_code: 200,
              duration_ms: 1,
              fault_related: false,
              relayed_events: null,
              closed_by_client: false,
            }),
      );
    }
    expect(stream.held()).toEqual({ open: 0, retryable: 20, chains: 20, rows: 0 });
    expect(evidenceOf(stream).metrics.operationsObserved).toBe(20_000);
  });
});
