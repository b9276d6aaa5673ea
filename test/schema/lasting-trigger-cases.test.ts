import { describe, it } from "vitest";
import { edited, textOf } from "../scenario/scenario-data.js";
import { expectAcceptedByBoth, expectRejectedByBoth } from "./schema-harness.js";

// biome-ignore lint/suspicious/noExplicitAny: test data is edited as free-form YAML
type Edit = (data: Record<string, any>) => void;
type Case = [string, Edit];

const text = (edit: Edit): string => textOf(edited(edit));
const trigger =
  (value: unknown): Edit =>
  (d) => {
    d.faults[0].trigger = value;
  };
const rateLimit =
  (value: unknown, retryAfter: unknown): Edit =>
  (d) => {
    d.faults = [
      {
        dependency: "llm",
        type: "http_rate_limit",
        target: { path: "/v1/*" },
        trigger: value,
        retry_after_seconds: retryAfter,
      },
    ];
  };

describe("outage and quota triggers: validate and the JSON Schema agree", () => {
  it.each<Case>([
    ["an outage", trigger({ outage: { start_ms: 0, duration_ms: 2000 } })],
    ["a request quota", trigger({ quota: { requests: 3, per_ms: 10000 } })],
    ["a token quota", trigger({ quota: { tokens: 2000, per_ms: 60000 } })],
    ["retry_after_seconds auto under a quota", rateLimit({ quota: { requests: 3, per_ms: 10000 } }, "auto")],
  ])("accepts %s", (_, edit) => {
    expectAcceptedByBoth(text(edit));
  });

  it.each<Case>([
    ["an outage without duration_ms", trigger({ outage: { start_ms: 0 } })],
    ["an outage of 0 ms", trigger({ outage: { start_ms: 0, duration_ms: 0 } })],
    ["a negative outage start", trigger({ outage: { start_ms: -1, duration_ms: 10 } })],
    ["an outage with an unknown key", trigger({ outage: { start_ms: 0, duration_ms: 10, end_ms: 5 } })],
    ["a quota with requests and tokens", trigger({ quota: { requests: 1, tokens: 1, per_ms: 10 } })],
    ["a quota with neither", trigger({ quota: { per_ms: 10 } })],
    ["a quota without per_ms", trigger({ quota: { requests: 3 } })],
    ["an outage and an occurrence", trigger({ occurrence: 1, outage: { start_ms: 0, duration_ms: 10 } })],
    ["retry_after_seconds as a word", rateLimit({ quota: { requests: 3, per_ms: 10000 } }, "later")],
  ])("rejects %s", (_, edit) => {
    expectRejectedByBoth(text(edit));
  });

  it("rejects retry_after_seconds auto without a quota, in both", () => {
    expectRejectedByBoth(text(rateLimit({ occurrence: 1 }, "auto")));
    expectRejectedByBoth(text(rateLimit({ outage: { start_ms: 0, duration_ms: 10 } }, "auto")));
  });
});
