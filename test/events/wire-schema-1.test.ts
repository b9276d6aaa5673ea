import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { EventPayloadV2 } from "../../src/events/types-v2.js";
import { toSchema1Payload } from "../../src/events/wire-schema-1.js";

const GOLDEN = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/golden");

/** The runtime's events that name their dependency internally. */
const NAMED = new Set(["DEPENDENCY_STARTED", "DEPENDENCY_READY", "INJECTOR_STARTED", "DEPENDENCY_STOPPED"]);

/** Every payload of the schema-1 golden event files, in file order. */
function goldenPayloads(): Record<string, unknown>[] {
  return readdirSync(GOLDEN)
    .filter((name) => name.endsWith(".events.jsonl"))
    .flatMap((name) =>
      readFileSync(join(GOLDEN, name), "utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { payload: Record<string, unknown> }).payload),
    );
}

/** The internal event the runtime emits for a schema-1 payload: the dependency `api` named after `kind`. */
function internalOf(payload: Record<string, unknown>): EventPayloadV2 {
  if (!NAMED.has(payload.kind as string)) return payload as unknown as EventPayloadV2;
  const { kind, ...rest } = payload;
  return { kind, dependency: "api", ...rest } as unknown as EventPayloadV2;
}

describe("toSchema1Payload", () => {
  const payloads = goldenPayloads();
  const kinds = [...new Set(payloads.map((payload) => payload.kind as string))].sort();

  it("covers every event type of the golden runs", () => {
    expect(kinds).toEqual(
      expect.arrayContaining([
        "DEPENDENCY_STOPPED",
        "FAULT_INJECTED",
        "INJECTOR_STARTED",
        "OPERATION_FAILED",
        "OPERATION_OBSERVED",
        "OPERATION_SUCCEEDED",
        "RUN_COMPLETED",
        "RUN_STARTED",
        "WORKLOAD_COMPLETED",
        "WORKLOAD_STARTED",
      ]),
    );
  });

  it.each(kinds)("writes %s byte for byte as the golden file does", (kind) => {
    for (const payload of payloads.filter((entry) => entry.kind === kind)) {
      expect(JSON.stringify(toSchema1Payload(internalOf(payload)))).toBe(JSON.stringify(payload));
    }
  });

  it("drops the dependency name of the runtime's events, keeping every other key in place", () => {
    const internal: EventPayloadV2[] = [
      { kind: "DEPENDENCY_STARTED", dependency: "api", base_url: "http://127.0.0.1:1/v1", pid: 7 },
      {
        kind: "DEPENDENCY_READY",
        dependency: "api",
        base_url: "http://127.0.0.1:1/v1",
        readiness_path: "/health",
      },
      {
        kind: "INJECTOR_STARTED",
        dependency: "api",
        proxy_url: "http://127.0.0.1:2",
        upstream_url: "http://127.0.0.1:1/v1",
      },
      { kind: "DEPENDENCY_STOPPED", dependency: "api", exit_code: 0 },
    ];
    expect(internal.map((payload) => JSON.stringify(toSchema1Payload(payload)))).toEqual([
      '{"kind":"DEPENDENCY_STARTED","base_url":"http://127.0.0.1:1/v1","pid":7}',
      '{"kind":"DEPENDENCY_READY","base_url":"http://127.0.0.1:1/v1","readiness_path":"/health"}',
      '{"kind":"INJECTOR_STARTED","proxy_url":"http://127.0.0.1:2","upstream_url":"http://127.0.0.1:1/v1"}',
      '{"kind":"DEPENDENCY_STOPPED","exit_code":0}',
    ]);
  });
});
