import { describe, expect, it } from "vitest";
import { operationLabels } from "../../src/events/operation-label.js";

describe("operation labels", () => {
  it("name each operation by dependency, method, path and its ordinal among the same calls", () => {
    const labels = operationLabels([
      { operationId: "a", dependency: "tools", protocol: "http", method: "get", path: "/weather/Paris" },
      { operationId: "b", dependency: "llm", protocol: "http", method: "POST", path: "/v1/chat/completions" },
      { operationId: "c", dependency: "tools", protocol: "http", method: "GET", path: "/weather/Paris" },
      { operationId: "d", dependency: "notes", protocol: "mcp", method: "initialize", path: "" },
      { operationId: "e", dependency: "notes", protocol: "mcp", method: "tools/call", path: "add_note" },
      { operationId: "f", dependency: "other", protocol: "http", method: "GET", path: "/weather/Paris" },
      { operationId: "c", dependency: "tools", protocol: "http", method: "GET", path: "/weather/Paris" },
    ]);
    expect([...labels]).toEqual([
      ["a", "tools GET /weather/Paris #1"],
      ["b", "llm POST /v1/chat/completions #1"],
      ["c", "tools GET /weather/Paris #2"],
      ["d", "notes initialize #1"],
      ["e", "notes tools/call add_note #1"],
      ["f", "other GET /weather/Paris #1"],
    ]);
  });
});
