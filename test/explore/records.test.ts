import { describe, expect, it } from "vitest";
import { pointRecord, skippedRecord } from "../../src/explore/records.js";

const place = {
  dependency: "llm",
  protocol: "http",
  method: "POST",
  path: "/v1/chat/completions",
  k: 2,
  relayedEvents: 7,
} as const;

describe("explore.json's point records", () => {
  it("write an injection point and a skipped point with their place in the same keys and order", () => {
    const point = pointRecord({ ...place, id: "P3", index: 2 }, ["http_error_503"]);
    expect(JSON.stringify(point)).toBe(
      '{"id":"P3","label":"llm POST /v1/chat/completions #2","dependency":"llm","protocol":"http","method":"POST","path":"/v1/chat/completions","k":2,"relayed_events":7,"menu":["http_error_503"]}',
    );
    const skipped = skippedRecord({ ...place, reason: "unstable", seenInRuns: 1 });
    expect(JSON.stringify(skipped)).toBe(
      '{"label":"llm POST /v1/chat/completions #2","dependency":"llm","protocol":"http","method":"POST","path":"/v1/chat/completions","k":2,"reason":"unstable","seen_in_runs":1}',
    );
  });
});
