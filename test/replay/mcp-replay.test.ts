import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { ROOT, testFolder } from "../helpers/cli.js";
import { runInProcessWithEnv } from "../helpers/in-process-env.js";

const folder = testFolder("each");
/**
 * The agent and the notes server of these record/replay tests speak plain JSON-RPC (no SDK):
 * they are only the traffic that is recorded, replayed and faulted. The bundled MCP examples run
 * the SDK's own agent and server live (test/e2e/mcp-examples.test.ts), and the replayed ones
 * replay cassettes recorded from the SDK server to the SDK agent
 * (test/replay/replayed-examples.test.ts).
 */
const PROGRAMS = join(ROOT, "test", "fixtures", "programs");

type Transport = "http" | "stdio";

function notesDependency(transport: Transport, server: string): string {
  const node = JSON.stringify(process.execPath);
  if (transport === "stdio")
    return `    type: mcp_stdio
    command: [${node}, ${server}]
    cwd: ${JSON.stringify(PROGRAMS)}`;
  return `    type: http
    protocol: mcp
    base_url: http://127.0.0.1:{port}
    start:
      command: [${node}, ${server}, --http, --port, "{port}"]
      cwd: ${JSON.stringify(PROGRAMS)}
      readiness: { path: /health }`;
}

/** A retrying notes agent against the notes server (stdio, or managed Streamable HTTP), replayed. */
function notesScenario(transport: Transport, faults = "", replayed = true): string {
  // A replayed run starts no server: the one it names does not even exist.
  const server = replayed && replaying ? "missing-server.mjs" : "mcp-plain-notes-server.mjs";
  const replay = replayed ? "    replay:\n      cassette: cassettes/notes.jsonl" : "";
  return `schema_version: 2
name: notes-replay
dependencies:
  notes:
${notesDependency(transport, server)}
${replay}
workload:
  name: notes-agent
  command: [${JSON.stringify(process.execPath)}, mcp-plain-notes-agent.mjs]
  cwd: ${JSON.stringify(PROGRAMS)}
${faults}
success:
  exit_code: 0
timeout_seconds: 30
`;
}

const TOOL_ERROR = `faults:
  - id: read-fails
    type: mcp_tool_error
    target: { method: tools/call, name: read_note }
    trigger: { occurrence: 1 }`;

interface RunOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: { result: string; reason_code: string };
  readonly events: { type: string; payload: Record<string, unknown> }[];
  readonly agentOutput: string;
}

/**
 * `record` and `run` through the CLI core in-process: these tests are about what the runs
 * record, replay and decide, not about the executable (the examples below run the built CLI).
 */
async function cli(args: string[], outputDir: string, env: Record<string, string>): Promise<RunOutcome> {
  const run = await runInProcessWithEnv([...args, "--output-dir", outputDir], folder.path, env);
  const runs = await readdir(outputDir).catch(() => [] as string[]);
  const runDir = join(outputDir, runs.sort().at(-1) ?? "none");
  const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8").catch(() => "{}"));
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8").catch(() => ""))
    .trimEnd()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  const agentOutput = await readFile(join(runDir, "stdout.log"), "utf8").catch(() => "");
  return { ...run, report, events, agentOutput };
}

/** Set once the cassette is recorded. */
let replaying = false;
const SECRET = "planted-note-secret-7781";
const types = (outcome: RunOutcome): string[] => outcome.events.map((event) => event.type);

describe.each(["http", "stdio"] as const)("record and replay of an MCP server over %s", (transport) => {
  beforeEach(() => {
    replaying = false;
  });

  it("replays with no server: same output and verdict, faults as live, a changed request named by pointer", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    await writeFile(scenario, notesScenario(transport));
    const env = { NOTES_PRIVATE_TEXT: SECRET };
    const recorded = await cli(["record", "scenario.yaml"], join(folder.path, "record"), env);
    expect(recorded.stderr).toBe("");
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/notes: 5 interactions -> cassettes\/notes\.jsonl/);
    replaying = true;
    const cassette = await readFile(join(folder.path, "cassettes", "notes.jsonl"), "utf8");
    expect(cassette).not.toContain(SECRET);
    expect(cassette.split("\n")[1]).toMatch(/^\{"method":"initialize"/);

    // The managed server is stopped with the recording run; nothing serves it now.
    const replayed = await cli(["run", "scenario.yaml"], join(folder.path, "replay"), env);
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(recorded.code);
    expect(replayed.report).toMatchObject({ result: "PASSED", reason_code: "BASELINE_SUCCEEDED" });
    expect(replayed.agentOutput).toBe(recorded.agentOutput);
    expect(types(replayed)).toContain("REPLAY_STARTED");
    expect(types(replayed)).not.toContain("DEPENDENCY_STARTED");

    // An MCP tool error on the replay: the verdict of the same fault on the live server.
    await writeFile(scenario, notesScenario(transport, TOOL_ERROR, false));
    const liveFault = await cli(["run", "scenario.yaml"], join(folder.path, "live-fault"), env);
    await writeFile(scenario, notesScenario(transport, TOOL_ERROR));
    const replayedFault = await cli(["run", "scenario.yaml"], join(folder.path, "replay-fault"), env);
    expect(replayedFault.report).toMatchObject({ result: "RECOVERED", reason_code: "RECOVERY_OBSERVED" });
    expect(replayedFault.report.reason_code).toBe(liveFault.report.reason_code);
    expect(replayedFault.code).toBe(liveFault.code);
    expect(replayedFault.agentOutput).toBe(liveFault.agentOutput);

    // The agent writes another note text: that request was never recorded.
    await writeFile(scenario, notesScenario(transport));
    const changed = await cli(["run", "scenario.yaml"], join(folder.path, "changed"), {
      NOTES_PRIVATE_TEXT: "another text zqx",
    });
    expect(changed.code).toBe(3);
    expect(changed.report).toMatchObject({ result: "FAILED", reason_code: "REPLAY_MISMATCH" });
    expect(changed.stdout).toMatch(
      /replay mismatch on notes: tools\/call add_note was not recorded; the nearest recorded tools\/call add_note differs at \/params\/arguments\/text/,
    );
    const failed = changed.events.find((event) => event.type === "OPERATION_FAILED");
    // Over HTTP the agent is answered 599; over stdio a JSON-RPC error (no status).
    expect(failed?.payload).toMatchObject({
      failure_kind: "replay_mismatch",
      status_code: transport === "http" ? 599 : null,
    });
    for (const text of [changed.stdout, JSON.stringify(changed.report), JSON.stringify(changed.events)])
      expect(text).not.toContain("zqx");
  }, 180_000);
});

/** An agent that files what it read in a summary note, and exits 0 even when that fails. */
function truthScenario(transport: Transport, corrupt: boolean): string {
  const fault = `faults:
  - id: wrong-note
    type: mcp_corrupt_result
    target: { method: tools/call, name: read_note }
    trigger: { occurrence: 1 }
    pointer: /content/0/text
    sinks: [notes]`;
  return `schema_version: 2
name: notes-truth-replay
dependencies:
  notes:
${notesDependency(transport, "mcp-plain-notes-server.mjs")}
    replay:
      cassette: cassettes/notes.jsonl
workload:
  name: summary-agent
  command: [${JSON.stringify(process.execPath)}, mcp-plain-notes-agent.mjs, summary]
  cwd: ${JSON.stringify(PROGRAMS)}
${corrupt ? fault : ""}
success:
  exit_code: 0
timeout_seconds: 30
`;
}

describe.each(["http", "stdio"] as const)("a canary on a replayed MCP server over %s", (transport) => {
  it("ends the run CORRUPTION_PROPAGATED, not REPLAY_MISMATCH, when the canary made the request differ", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    await writeFile(scenario, truthScenario(transport, false));
    const recorded = await cli(["record", "scenario.yaml"], join(folder.path, "record"), {});
    expect(recorded.code).toBe(0);
    await writeFile(scenario, truthScenario(transport, true));
    const replayed = await cli(["run", "scenario.yaml"], join(folder.path, "replay"), {});
    expect(replayed.report).toMatchObject({ result: "FAILED", reason_code: "CORRUPTION_PROPAGATED" });
    expect(replayed.code).toBe(1);
    expect(replayed.agentOutput).toBe("Summary not saved\n");
    // The summary note is still answered as a mismatch; the run is not ended by it.
    const failed = replayed.events.filter((event) => event.type === "OPERATION_FAILED");
    expect(failed.map((event) => event.payload.failure_kind)).toContain("replay_mismatch");
    expect(replayed.events.some((event) => event.type === "RUN_ERROR")).toBe(false);
    expect(types(replayed)).toContain("CANARY_SEEN");
  }, 120_000);
});
