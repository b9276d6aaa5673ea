import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEventLine, parseEventLine3, readEventsAny } from "../../src/events/reader.js";
import { Recorder } from "../../src/events/recorder.js";
import { readReport } from "../../src/report/reader.js";
import { eventsSchemaOf, usesAdditions } from "../../src/scenario/additions.js";
import type { Scenario } from "../../src/scenario/types.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentchaos-schema-3-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records the given payloads into a fresh file of `schema` and returns its lines. */
async function recorded(schema: 2 | 3, emit: (recorder: Recorder) => void): Promise<string[]> {
  const path = join(dir, `events-${schema}.jsonl`);
  const recorder = new Recorder(path, "run-3", schema);
  emit(recorder);
  recorder.close();
  return (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
}

const injected = {
  kind: "FAULT_INJECTED",
  operation_id: "op-1",
  fault_id: "wrong-price",
  fault_type: "http_corrupt",
  parameters: {},
  pointer: "/price",
  canary_type: "number",
} as const;

describe("events schema 3", () => {
  it("writes FAULT_INJECTED with the corruption keys, null when a fault has none", async () => {
    const lines = await recorded(3, (recorder) => {
      recorder.emit(injected);
      recorder.emit({
        kind: "FAULT_INJECTED",
        operation_id: "op-2",
        fault_id: "f2",
        fault_type: "http_error",
        parameters: { status_code: 503 },
      });
    });
    const [first, second] = lines.map((line, index) => parseEventLine3(line, index + 1));
    expect(first?.schema_version).toBe(3);
    expect(Object.keys(first?.payload ?? {})).toEqual([
      "kind",
      "operation_id",
      "fault_id",
      "fault_type",
      "parameters",
      "pointer",
      "canary_type",
    ]);
    expect(second?.payload).toMatchObject({ pointer: null, canary_type: null });
  });

  it("keeps schema 2 exactly as it was: no corruption keys, no addition events", async () => {
    const [line] = await recorded(2, (recorder) =>
      recorder.emit({ ...injected, fault_type: "http_error", parameters: { status_code: 503 } }),
    );
    expect(JSON.parse(line ?? "").payload).toEqual({
      kind: "FAULT_INJECTED",
      operation_id: "op-1",
      fault_id: "wrong-price",
      fault_type: "http_error",
      parameters: { status_code: 503 },
    });
    const [replay] = await recorded(3, (recorder) =>
      recorder.emit({
        kind: "REPLAY_STARTED",
        dependency: "llm",
        cassette: "cassettes/llm.jsonl",
        interactions: 4,
      }),
    );
    expect(parseEventLine3(replay ?? "", 1).payload).toMatchObject({ interactions: 4 });
    const asSchema2 = (replay ?? "").replace('"schema_version":3', '"schema_version":2');
    expect(() => parseEventLine(asSchema2, 1)).toThrow(/type/);
  });

  it("reads every addition event and refuses unknown keys and values", async () => {
    const lines = await recorded(3, (recorder) => {
      recorder.emit({ kind: "VERIFY_COMPLETED", exit_code: 1, timed_out: false, duration_ms: 12 });
      recorder.emit({ kind: "CANARY_SEEN", fault_id: "wrong-price", sink: "stdout", operation_id: null });
      recorder.emit({ kind: "MCP_CANCELLED", dependency: "notes", session: 1, operation_id: "op-4" });
      recorder.emit({
        kind: "OPERATION_FAILED",
        operation_id: "op-5",
        fingerprint: "fp",
        failure_kind: "replay_mismatch",
        status_code: 599,
        fault_related: false,
        retry_after_ms: null,
        upstream_status: null,
        rpc_error_code: null,
        relayed_events: null,
      });
    });
    const path = join(dir, "events-3.jsonl");
    const read = await readEventsAny(path);
    expect(read.schema).toBe(3);
    expect(read.events.map((event) => event.type)).toEqual([
      "VERIFY_COMPLETED",
      "CANARY_SEEN",
      "MCP_CANCELLED",
      "OPERATION_FAILED",
    ]);
    const failedAsSchema2 = (lines[3] ?? "").replace('"schema_version":3', '"schema_version":2');
    expect(() => parseEventLine(failedAsSchema2, 4)).toThrow(/failure_kind/);
    const canaryValue = (lines[1] ?? "").replace('"operation_id":null', '"operation_id":null,"value":"x"');
    expect(() => parseEventLine3(canaryValue, 2)).toThrow(/value/);
    await writeFile(
      path,
      `${lines[0]}\n${(lines[1] ?? "").replace('"schema_version":3', '"schema_version":2')}\n`,
    );
    await expect(readEventsAny(path)).rejects.toMatchObject({ code: "EVENTS_INVALID", line: 2 });
  });
});

describe("which runs use the additions", () => {
  const base = {
    schemaVersion: 2,
    faults: [],
    dependencies: [],
    checks: { retry_after: { mode: "off", dependencies: null } },
  } as unknown as Scenario;

  it("is false for a scenario with none of them, so it keeps events 2 and report 4", () => {
    expect(usesAdditions(base)).toBe(false);
    expect(eventsSchemaOf(base)).toBe(2);
    expect(eventsSchemaOf({ schemaVersion: 1 })).toBe(1);
  });

  it.each([
    ["verify", { ...base, verify: { command: ["true"], timeoutSeconds: 10 } }],
    ["a replayed dependency", { ...base, dependencies: [{ name: "llm", replay: { cassette: "c.jsonl" } }] }],
    [
      "a corruption fault",
      { ...base, faults: [{ type: "http_corrupt", trigger: { kind: "occurrence_schedule" } }] },
    ],
    ["an outage trigger", { ...base, faults: [{ type: "http_error", trigger: { kind: "outage" } }] }],
    ["the fail_fast check", { ...base, checks: { ...base.checks, fail_fast: { mode: "report" } } }],
  ])("is true with %s", (_name, scenario) => {
    expect(eventsSchemaOf(scenario as unknown as Scenario)).toBe(3);
  });

  it("is false for a lifecycle check that is off", () => {
    const off = { ...base, checks: { ...base.checks, cancellation: { mode: "off" } } };
    expect(usesAdditions(off as unknown as Scenario)).toBe(false);
  });
});

describe("report schema 5", () => {
  it("is read with schema 4's shape and keeps its version", async () => {
    const fixture = join("test", "fixtures", "reports", "valid");
    const { readdir } = await import("node:fs/promises");
    const names = (await readdir(fixture)).filter((name) => name.startsWith("v4-"));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const text = await readFile(join(fixture, name), "utf8");
      const path = join(dir, name);
      await writeFile(path, text.replace('"schema_version": 4', '"schema_version": 5'));
      expect((await readReport(path)).report.schema_version).toBe(5);
    }
  });
});
