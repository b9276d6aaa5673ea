import { describe, expect, it } from "vitest";
import { duplicateWritesCheck } from "../../src/checks/duplicate-writes.js";
import { checksConfig } from "../analysis/schema-2/scenarios.js";
import { type ObservedOptions, runBuilder } from "../helpers/events.js";
import { findingsOf } from "./check-runs.js";

const config = checksConfig().duplicate_writes;
const KEY = "a".repeat(64);
const OTHER_KEY = "b".repeat(64);

interface Write {
  readonly method?: string;
  readonly path?: string;
  readonly config?: typeof config;
  readonly lostKey?: string | null;
  readonly retryKey?: string | null;
  readonly upstreamStatus?: number;
  readonly retryStatus?: number;
  readonly retryDependency?: string;
}

/** A write whose response is lost after the upstream answered, then the same write again. */
function lostAndRepeated(write: Write = {}) {
  const request = (key: string | null | undefined, dependency = "api"): ObservedOptions => ({
    method: write.method ?? "POST",
    path: write.path ?? "/tickets",
    idempotencyKeyHash: key ?? null,
    dependency,
  });
  const run = runBuilder()
    .setup(["api", "crm"])
    .observed("op-1", "fp-w", request(write.lostKey))
    .injected("op-1", "f1", "http_response_lost", {})
    .failed("op-1", "injected_response_lost", {
      statusCode: null,
      upstreamStatus: write.upstreamStatus ?? 201,
    })
    .observed("op-2", "fp-w", request(write.retryKey, write.retryDependency));
  const status = write.retryStatus ?? 201;
  if (status < 400) run.succeeded("op-2", { statusCode: status });
  else run.failed("op-2", "upstream_http_error", { statusCode: status });
  return findingsOf("duplicate_writes", run, write.config ?? config);
}

const FINDING = [{ operation_id: "op-1", duplicate_operation_id: "op-2" }];

describe("the duplicate_writes check", () => {
  it("finds a POST or PATCH repeated after its response was lost", () => {
    expect(lostAndRepeated()).toEqual(FINDING);
    expect(lostAndRepeated({ method: "PATCH" })).toEqual(FINDING);
  });

  it("never finds a PUT (idempotent) or a GET", () => {
    expect(lostAndRepeated({ method: "PUT" })).toEqual([]);
    expect(lostAndRepeated({ method: "GET" })).toEqual([]);
  });

  it("leaves model calls out by default: they create nothing a repeat would duplicate", () => {
    for (const path of [
      "/v1/chat/completions",
      "/openai/deployments/gpt/chat/completions",
      "/v1/responses",
      "/v1/messages",
      "/v1/completions",
      "/v1/embeddings",
    ])
      expect({ path, found: lostAndRepeated({ path }) }).toEqual({ path, found: [] });
    // Without the /v1 segment these are an application's own writes.
    expect(lostAndRepeated({ path: "/surveys/1/responses" })).toEqual(FINDING);
    expect(lostAndRepeated({ path: "/rooms/1/messages" })).toEqual(FINDING);
    // Naming paths replaces the default: a model call can be checked on purpose.
    expect(lostAndRepeated({ path: "/v1/responses", config: { ...config, paths: ["/v1/*"] } })).toEqual(
      FINDING,
    );
  });

  it("takes methods, paths and dependencies filters", () => {
    expect(lostAndRepeated({ method: "PUT", config: { ...config, methods: ["PUT"] } })).toEqual(FINDING);
    expect(lostAndRepeated({ config: { ...config, methods: ["PATCH"] } })).toEqual([]);
    expect(lostAndRepeated({ config: { ...config, paths: ["/orders/*"] } })).toEqual([]);
    expect(lostAndRepeated({ config: { ...config, paths: ["/orders/*", "/tick*"] } })).toEqual(FINDING);
    expect(lostAndRepeated({ config: { ...config, dependencies: ["crm"] } })).toEqual([]);
    expect(lostAndRepeated({ config: { ...config, dependencies: ["crm", "api"] } })).toEqual(FINDING);
  });

  it("accepts the repeat when both carry the same idempotency key, and only then", () => {
    expect(lostAndRepeated({ lostKey: KEY, retryKey: KEY })).toEqual([]);
    expect(lostAndRepeated({ lostKey: KEY, retryKey: OTHER_KEY })).toEqual(FINDING);
    expect(lostAndRepeated({ lostKey: KEY, retryKey: null })).toEqual(FINDING);
    expect(lostAndRepeated({ lostKey: null, retryKey: KEY })).toEqual(FINDING);
  });

  it("needs the upstream to have accepted the lost write and the repeat to succeed", () => {
    expect(lostAndRepeated({ upstreamStatus: 399 })).toEqual(FINDING);
    expect(lostAndRepeated({ upstreamStatus: 400 })).toEqual([]);
    expect(lostAndRepeated({ retryStatus: 399 })).toEqual(FINDING);
    expect(lostAndRepeated({ retryStatus: 409 })).toEqual([]);
  });

  it("never pairs operations of different dependencies", () => {
    expect(lostAndRepeated({ retryDependency: "crm" })).toEqual([]);
  });

  it("ignores an equal write observed before the response was lost", () => {
    const run = runBuilder()
      .setup()
      .observed("op-1", "fp-w", { method: "POST", path: "/tickets" })
      .observed("op-2", "fp-w", { method: "POST", path: "/tickets" })
      .injected("op-1", "f1", "http_response_lost", {})
      .failed("op-1", "injected_response_lost", { statusCode: null, upstreamStatus: 201 })
      .succeeded("op-2", { statusCode: 201 });
    expect(findingsOf("duplicate_writes", run, config)).toEqual([]);
  });

  it("describes a finding with both operations", () => {
    const [finding] = lostAndRepeated();
    if (finding === undefined) throw new Error("expected a finding");
    const labels: Record<string, string> = { "op-1": "api POST /tickets #1", "op-2": "api POST /tickets #2" };
    expect(duplicateWritesCheck.describe(finding, config, (id) => labels[id] ?? id)).toBe(
      "operation api POST /tickets #2 repeated the write of operation api POST /tickets #1, whose response was lost, without the same idempotency key",
    );
  });
});
