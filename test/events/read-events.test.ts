import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseEventLine, readEvents, readEventsAny, readLegacyEvents } from "../../src/events/reader.js";
import { runBuilder } from "../helpers/events.js";
import { legacyRunBuilder } from "../helpers/legacy-events.js";
import { errorOf } from "./event-fixtures.js";

/** One event of every schema-2 type, in a realistic order. */
function everyTypeRun() {
  return runBuilder()
    .setup(["llm", "notes"], ["llm"])
    .emit({ kind: "SESSION_STARTED", dependency: "notes", session: 1, pid: 5151 })
    .observed("op-1", "fp-a", { dependency: "llm", method: "POST", path: "/v1/chat/completions" })
    .injected("op-1", "llm-cut", "http_stream_truncate", { after_events: 3 })
    .notApplied("op-1", "llm-other", "another_fault_acted")
    .failed("op-1", "injected_stream_truncated", { statusCode: 200, relayedEvents: 3 })
    .observed("op-2", "fp-a", { dependency: "llm", method: "POST", path: "/v1/chat/completions" })
    .retry("op-2", "op-1")
    .succeeded("op-2", { relayedEvents: 12, closedByClient: true })
    .observed("op-3", "fp-m", { dependency: "notes", protocol: "mcp" })
    .failed("op-3", "rpc_error", { rpcErrorCode: -32603 })
    .emit({ kind: "SESSION_ENDED", dependency: "notes", session: 1, exit_code: 0 })
    .workloadCompleted()
    .dependencyStopped("llm")
    .runCompleted("FAILED", "FAULT_NOT_APPLIED");
}

/** The JSON line of the first event of a type after an edit of its plain JSON object. */
function edited(
  type: string,
  edit: (event: { payload: Record<string, unknown> } & Record<string, unknown>) => void,
) {
  const event = structuredClone(
    everyTypeRun()
      .events()
      .find((e) => e.type === type),
  );
  if (event === undefined) throw new Error(`no ${type}`);
  const plain = event as unknown as { payload: Record<string, unknown> } & Record<string, unknown>;
  edit(plain);
  return JSON.stringify(plain);
}

describe("parseEventLineV2", () => {
  it("accepts every schema-2 event type as written", () => {
    for (const event of everyTypeRun().events()) {
      expect(parseEventLine(JSON.stringify(event), 1)).toEqual(event);
    }
  });

  it.each([
    ["OPERATION_FAILED", "failure_kind", "injected_teleport"],
    ["OPERATION_FAILED", "retry_after_ms", -1],
    ["OPERATION_FAILED", "relayed_events", 1.5],
    ["OPERATION_FAILED", "rpc_error_code", "x"],
    ["OPERATION_SUCCEEDED", "closed_by_client", null],
    ["OPERATION_SUCCEEDED", "status_code", "200"],
    ["OPERATION_OBSERVED", "protocol", "grpc"],
    ["OPERATION_OBSERVED", "session", 0],
    ["OPERATION_OBSERVED", "idempotency_key_hash", 7],
    ["FAULT_NOT_APPLIED", "reason", "bad_luck"],
    ["FAULT_INJECTED", "fault_type", "http_teleport"],
    ["FAULT_INJECTED", "parameters", { after_events: "3" }],
    ["INJECTOR_STARTED", "proxy_url", 9001],
    ["SESSION_STARTED", "session", -1],
    ["DEPENDENCY_STOPPED", "dependency", null],
  ])("rejects %s with an invalid %s, naming the key", (type, key, value) => {
    const line = edited(type, (event) => {
      event.payload[key] = value;
    });
    expect(errorOf(() => parseEventLine(line, 7))).toMatchObject({
      code: "EVENTS_INVALID",
      line: 7,
      keyPath: `payload.${key}`,
    });
  });

  it("rejects a schema-1 payload, a missing schema-2 key and an unknown key", () => {
    const noDependency = edited("DEPENDENCY_STOPPED", (event) => {
      delete event.payload.dependency;
    });
    expect(errorOf(() => parseEventLine(noDependency, 1)).keyPath).toBe("payload.dependency");
    const extra = edited("OPERATION_SUCCEEDED", (event) => {
      event.payload.body = "secret";
    });
    expect(errorOf(() => parseEventLine(extra, 1)).keyPath).toBe("payload.body");
    const schema1 = JSON.stringify(legacyRunBuilder().setup().events()[0]);
    expect(errorOf(() => parseEventLine(schema1, 1)).keyPath).toBe("schema_version");
  });

  it("requires the schema-2 component of a type (SESSION_* and FAULT_NOT_APPLIED are proxy events)", () => {
    const line = edited("SESSION_STARTED", (event) => {
      event.component = "dependency";
    });
    expect(errorOf(() => parseEventLine(line, 1)).keyPath).toBe("component");
  });
});

describe("readEventsAny and readEvents", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentchaos-events-v2-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function file(text: string): Promise<string> {
    const path = join(dir, "events.jsonl");
    await writeFile(path, text);
    return path;
  }

  it("tags a schema-2 file with its schema and reads every event back", async () => {
    const builder = everyTypeRun();
    const path = await file(builder.jsonl());
    expect(await readEventsAny(path)).toEqual({ schema: 2, events: builder.events() });
    expect(await readEvents(path)).toEqual(builder.events());
  });

  it("tags a schema-1 file with schema 1, exactly as readEvents reads it", async () => {
    const builder = legacyRunBuilder().setup().observed("op-1", "fp").succeeded("op-1").workloadCompleted();
    const path = await file(builder.jsonl());
    expect(await readEventsAny(path)).toEqual({ schema: 1, events: await readLegacyEvents(path) });
  });

  it("rejects a file that mixes the two schemas, at the first line of the other schema", async () => {
    const v2 = runBuilder().setup().jsonl();
    const v1 = legacyRunBuilder().setup().jsonl().split("\n")[1];
    await expect(readEventsAny(await file(`${v2}${v1}\n`))).rejects.toMatchObject({
      code: "EVENTS_INVALID",
      line: 4,
      keyPath: "schema_version",
    });
    const v1First = `${legacyRunBuilder().setup().jsonl()}${v2.split("\n")[0]}\n`;
    await expect(readEventsAny(await file(v1First))).rejects.toMatchObject({
      line: 4,
      keyPath: "schema_version",
    });
  });

  it("keeps the truncated-tail rule and the error codes of readEvents", async () => {
    const builder = runBuilder().setup();
    const path = await file(`${builder.jsonl()}{"schema_version":2,"ev`);
    await expect(readEventsAny(path)).rejects.toMatchObject({ code: "EVENTS_TRUNCATED", line: 4 });
    expect(await readEventsAny(path, { allowTruncatedTail: true })).toEqual({
      schema: 2,
      events: builder.events(),
    });
    await expect(readEventsAny(join(dir, "missing.jsonl"))).rejects.toMatchObject({
      code: "EVENTS_NOT_FOUND",
    });
    await expect(readEvents(dir)).rejects.toMatchObject({ code: "EVENTS_UNREADABLE" });
  });

  it("reads a file without a complete line as schema 1 without events", async () => {
    expect(await readEventsAny(await file(""))).toEqual({ schema: 1, events: [] });
  });

  it("never repeats a value from the file in its error message", async () => {
    const line = edited("OPERATION_OBSERVED", (event) => {
      event.payload.path = 42;
      event.payload.method = "sk-SECRET-TOKEN";
    });
    const error = await readEventsAny(await file(`${line}\n`)).catch((caught: unknown) => caught);
    expect(String((error as Error).message)).not.toContain("SECRET");
    expect(String((error as Error).message)).not.toContain("42");
  });
});
