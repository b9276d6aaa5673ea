import { describe, expect, it } from "vitest";
import { edited, parseScenarioData, problemMessages, problemPaths } from "../scenario/scenario-data.js";

describe("scenario: replay on a dependency", () => {
  it("applies the defaults and resolves the cassette against the scenario's folder", () => {
    const scenario = parseScenarioData(
      edited((d) => (d.dependencies.crm.replay = { cassette: "cassettes/crm.jsonl" })),
    );
    expect(scenario.dependencies[1]).toMatchObject({
      replay: {
        cassette: "/scenarios/v2/cassettes/crm.jsonl",
        cassetteAsWritten: "cassettes/crm.jsonl",
        match: ["method", "path", "body"],
        onMismatch: "fail",
        timing: "recorded",
        redact: [],
      },
    });
    expect(scenario.dependencies[0]).not.toHaveProperty("replay");
  });

  it("keeps every key as written", () => {
    const scenario = parseScenarioData(
      edited(
        (d) =>
          (d.dependencies.crm.replay = {
            cassette: "/abs/crm.jsonl",
            match: ["method", "path", "query"],
            on_mismatch: "live",
            timing: "immediate",
            redact: ["/token", "/data/0/key"],
          }),
      ),
    );
    expect(scenario.dependencies[1]).toMatchObject({
      replay: {
        cassette: "/abs/crm.jsonl",
        match: ["method", "path", "query"],
        onMismatch: "live",
        timing: "immediate",
        redact: ["/token", "/data/0/key"],
      },
    });
  });

  it("rejects a missing cassette, unknown keys and bad values with the key path", () => {
    const at = (replay: unknown) => problemPaths(edited((d) => (d.dependencies.crm.replay = replay)));
    expect(at({})).toEqual(["dependencies.crm.replay.cassette"]);
    expect(at({ cassette: "" })).toEqual(["dependencies.crm.replay.cassette"]);
    expect(at({ cassette: "c.jsonl", speed: 2 })).toEqual(["dependencies.crm.replay.speed"]);
    expect(at({ cassette: "c.jsonl", match: ["headers"] })[0]).toMatch(/^dependencies\.crm\.replay\.match/);
    expect(at({ cassette: "c.jsonl", match: [] })).toEqual(["dependencies.crm.replay.match"]);
    expect(at({ cassette: "c.jsonl", match: ["path", "path"] })).toEqual(["dependencies.crm.replay.match"]);
    expect(at({ cassette: "c.jsonl", on_mismatch: "skip" })).toEqual(["dependencies.crm.replay.on_mismatch"]);
    expect(at({ cassette: "c.jsonl", timing: "fast" })).toEqual(["dependencies.crm.replay.timing"]);
    expect(at({ cassette: "c.jsonl", redact: ["token"] })[0]).toMatch(/^dependencies\.crm\.replay\.redact/);
    expect(at("c.jsonl")).toEqual(["dependencies.crm.replay"]);
  });

  it("accepts replay on protocol mcp and on mcp_stdio, but refuses on_mismatch live on mcp_stdio", () => {
    const mcpHttp = parseScenarioData(
      edited((d) => {
        d.dependencies.crm.protocol = "mcp";
        d.dependencies.crm.replay = { cassette: "mcp.jsonl", on_mismatch: "live" };
        d.faults = [];
      }),
    );
    expect(mcpHttp.dependencies[1]).toMatchObject({ protocol: "mcp", replay: { onMismatch: "live" } });
    const stdio = (replay: unknown) =>
      edited((d) => {
        d.dependencies.notes = { type: "mcp_stdio", command: ["node", "notes.mjs"], replay };
      });
    expect(parseScenarioData(stdio({ cassette: "notes.jsonl" })).dependencies[2]).toMatchObject({
      replay: { onMismatch: "fail", cassette: "/scenarios/v2/notes.jsonl" },
    });
    const messages = problemMessages(stdio({ cassette: "notes.jsonl", on_mismatch: "live" }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^dependencies\.notes\.replay\.on_mismatch: .*no live upstream/);
  });
});

describe("scenario text written back (explore's run folders and replays)", () => {
  it("keeps replay, its cassette resolving to the same file from another folder", async () => {
    const { scenarioText } = await import("../../src/explore/scenario-text.js");
    const { parseScenario } = await import("../../src/scenario/load.js");
    const scenario = parseScenarioData(
      edited(
        (d) =>
          (d.dependencies.crm.replay = {
            cassette: "cassettes/crm.jsonl",
            timing: "immediate",
            redact: ["/token"],
          }),
      ),
    );
    const elsewhere = "/out/explore/replays/01.yaml";
    const text = scenarioText(scenario, "/out/explore/replays");
    expect(text).toContain("cassette: ../../../scenarios/v2/cassettes/crm.jsonl");
    const parsed = parseScenario(new TextEncoder().encode(text), elsewhere);
    if (parsed.schemaVersion !== 2) throw new Error("expected schema 2");
    expect(parsed.dependencies[1]).toMatchObject({
      replay: {
        cassette: "/scenarios/v2/cassettes/crm.jsonl",
        match: ["method", "path", "body"],
        onMismatch: "fail",
        timing: "immediate",
        redact: ["/token"],
      },
    });
  });
});
