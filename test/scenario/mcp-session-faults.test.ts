import { describe, expect, it } from "vitest";
import { edited, parseScenarioData, problemMessages, problemPaths } from "./scenario-data.js";

const onStdio = (fault: Record<string, unknown>) =>
  edited((d) => {
    d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"] };
    d.faults[0] = { dependency: "notes", trigger: { occurrence: 1 }, ...fault };
  });

const onHttp = (fault: Record<string, unknown>) =>
  edited((d) => {
    d.dependencies.crm.protocol = "mcp";
    d.faults[0] = { dependency: "crm", trigger: { occurrence: 1 }, ...fault };
  });

describe("mcp_malformed, mcp_oversized and mcp_tools_changed in a scenario", () => {
  it("loads each with its keys and defaults", () => {
    const malformed = onStdio({ type: "mcp_malformed", target: { method: "tools/list" }, shape: "wrong_id" });
    expect(parseScenarioData(malformed).faults[0]).toMatchObject({
      type: "mcp_malformed",
      shape: "wrong_id",
    });
    const oversized = onHttp({ type: "mcp_oversized", target: { name: "search" } });
    expect(parseScenarioData(oversized).faults[0]).toMatchObject({
      type: "mcp_oversized",
      sizeBytes: 8 * 1024 * 1024,
    });
    const changed = onStdio({ type: "mcp_tools_changed", target: { method: "tools/call", name: "a" } });
    expect(parseScenarioData(changed).faults[0]).toMatchObject({
      type: "mcp_tools_changed",
      remove: [],
      require: null,
    });
    const full = onStdio({
      type: "mcp_tools_changed",
      target: { method: "tools/call", name: "a" },
      remove: ["b", "c"],
      require: "reason",
    });
    expect(parseScenarioData(full).faults[0]).toMatchObject({ remove: ["b", "c"], require: "reason" });
  });

  it("rejects a missing or unknown shape at its key", () => {
    expect(problemPaths(onStdio({ type: "mcp_malformed", target: { method: "tools/list" } }))).toEqual([
      "faults[0].shape",
    ]);
    const unknown = onStdio({ type: "mcp_malformed", target: { method: "tools/list" }, shape: "garbage" });
    expect(problemPaths(unknown)).toEqual(["faults[0].shape"]);
    expect(problemMessages(unknown).join("\n")).toMatch(/"not_json", "wrong_id" or "missing_result"/);
  });

  it("bounds size_bytes: 64 MiB on stdio, the 10 MiB body limit over HTTP", () => {
    const atLimit = onStdio({ type: "mcp_oversized", target: { name: "a" }, size_bytes: 64 * 1024 * 1024 });
    expect(parseScenarioData(atLimit).faults[0]).toMatchObject({ sizeBytes: 64 * 1024 * 1024 });
    const over = onStdio({ type: "mcp_oversized", target: { name: "a" }, size_bytes: 64 * 1024 * 1024 + 1 });
    expect(problemPaths(over)).toEqual(["faults[0].size_bytes"]);
    expect(problemPaths(onStdio({ type: "mcp_oversized", target: { name: "a" }, size_bytes: 0 }))).toEqual([
      "faults[0].size_bytes",
    ]);
    const overHttp = onHttp({
      type: "mcp_oversized",
      target: { name: "a" },
      size_bytes: 10 * 1024 * 1024 + 1,
    });
    expect(problemPaths(overHttp)).toEqual(["faults[0].size_bytes"]);
    expect(problemMessages(overHttp).join("\n")).toMatch(/at most 10485760/);
    const fitsHttp = onHttp({ type: "mcp_oversized", target: { name: "a" }, size_bytes: 10 * 1024 * 1024 });
    expect(parseScenarioData(fitsHttp).faults[0]).toMatchObject({ sizeBytes: 10 * 1024 * 1024 });
  });

  it("checks remove's names, and that require comes with a tools/call target", () => {
    const badNames = onStdio({
      type: "mcp_tools_changed",
      target: { method: "tools/call" },
      remove: ["a", ""],
    });
    expect(problemPaths(badNames)).toEqual(["faults[0].remove[1]"]);
    const notAList = onStdio({ type: "mcp_tools_changed", target: { method: "tools/call" }, remove: "a" });
    expect(problemPaths(notAList)).toEqual(["faults[0].remove"]);
    const requireOnList = onStdio({
      type: "mcp_tools_changed",
      target: { method: "tools/list" },
      require: "x",
    });
    expect(problemPaths(requireOnList)).toEqual(["faults[0].target.method"]);
  });

  it("keeps them off http dependencies without protocol: mcp", () => {
    const data = edited((d) => {
      d.faults[0] = {
        dependency: "crm",
        type: "mcp_malformed",
        target: { path: "/x" },
        trigger: { occurrence: 1 },
        shape: "not_json",
      };
    });
    expect(problemPaths(data)).toContain("faults[0].type");
  });
});
