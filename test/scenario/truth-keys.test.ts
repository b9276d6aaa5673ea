import { describe, expect, it } from "vitest";
import { edited, parseScenarioData, problemMessages, problemPaths } from "./scenario-data.js";

const withVerify = (verify: unknown) =>
  edited((d) => {
    d.verify = verify;
  });

const corruption = (own: Record<string, unknown>) =>
  edited((d) => {
    d.faults = [
      {
        dependency: "crm",
        type: "http_corrupt",
        target: { method: "GET", path: "/items/*" },
        trigger: { occurrence: 1 },
        pointer: "/price",
        ...own,
      },
    ];
  });

describe("schema 2: verify", () => {
  it("loads an argv command with the default time limit of 10 seconds", () => {
    expect(parseScenarioData(withVerify({ command: ["node", "check-desk.mjs"] })).verify).toEqual({
      command: ["node", "check-desk.mjs"],
      timeoutSeconds: 10,
    });
    expect(
      parseScenarioData(withVerify({ command: ["node", "x.mjs"], timeout_seconds: 600 })).verify
        ?.timeoutSeconds,
    ).toBe(600);
  });

  it("refuses a verify without a command, a command that is not an argv, and a time limit outside 1 to 600", () => {
    expect(problemPaths(withVerify({ timeout_seconds: 5 }))).toEqual(["verify.command"]);
    expect(problemPaths(withVerify({ command: "node check.mjs" }))).toEqual(["verify.command"]);
    expect(problemPaths(withVerify({ command: [] }))).toEqual(["verify.command"]);
    expect(problemPaths(withVerify({ command: ["node", 3] }))).toEqual(["verify.command[1]"]);
    expect(problemPaths(withVerify({ command: ["node"], timeout_seconds: 0 }))).toEqual([
      "verify.timeout_seconds",
    ]);
    expect(problemPaths(withVerify({ command: ["node"], timeout_seconds: 601 }))).toEqual([
      "verify.timeout_seconds",
    ]);
    expect(problemPaths(withVerify({ command: ["node"], shell: true }))).toEqual(["verify.shell"]);
    expect(problemPaths(withVerify("node check.mjs"))).toEqual(["verify"]);
  });
});

describe("schema 2: corruption faults", () => {
  it("loads http_corrupt with expect handle and sinks [stdout] by default", () => {
    expect(parseScenarioData(corruption({})).faults[0]).toMatchObject({
      type: "http_corrupt",
      pointer: "/price",
      sinks: ["stdout"],
      expect: "handle",
    });
    expect(parseScenarioData(corruption({ sinks: ["stdout", "llm", "crm"] })).faults[0]).toMatchObject({
      sinks: ["stdout", "llm", "crm"],
    });
  });

  it("accepts RFC 6901 pointers, and refuses one that is not", () => {
    for (const pointer of ["", "/", "/a~0b/c~1d/0", "/items/0/price"])
      expect(parseScenarioData(corruption({ pointer })).faults[0]).toMatchObject({ pointer });
    for (const pointer of ["price", "/a~2", "/a~", 7])
      expect(problemPaths(corruption({ pointer }))).toEqual(["faults[0].pointer"]);
  });

  it("loads an http_corrupt without a pointer as the first leaf value (null), and still needs one on mcp_corrupt_result", () => {
    expect(parseScenarioData(corruption({ pointer: undefined })).faults[0]).toMatchObject({ pointer: null });
    const mcp = edited((d) => {
      d.dependencies = {
        ...(d.dependencies as object),
        notes: { type: "mcp_stdio", command: ["node", "n.mjs"] },
      };
      d.faults = [
        {
          dependency: "notes",
          type: "mcp_corrupt_result",
          target: { method: "tools/call" },
          trigger: { occurrence: 1 },
        },
      ];
    });
    expect(problemPaths(mcp)).toEqual(["faults[0].pointer"]);
  });

  it("refuses a sink that is neither stdout nor a dependency, naming the position", () => {
    expect(problemMessages(corruption({ sinks: ["stdout", "billing"] }))).toEqual([
      'faults[0].sinks[1]: expected "stdout" or the name of a dependency (llm, crm), got "billing"',
    ]);
  });

  it("refuses expect: recover on a corruption fault, and keeps give_up", () => {
    expect(problemPaths(corruption({ expect: "recover" }))).toEqual(["faults[0].expect"]);
    expect(parseScenarioData(corruption({ expect: "give_up" })).faults[0]).toMatchObject({
      expect: "give_up",
    });
  });

  it("puts mcp_corrupt_result on MCP dependencies only", () => {
    expect(problemPaths(corruption({ type: "mcp_corrupt_result" }))).toEqual(["faults[0].type"]);
  });
});
