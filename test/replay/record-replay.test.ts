import { copyFile, mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIN, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { runInProcessWithEnv } from "../helpers/in-process-env.js";
import { tempDir } from "../helpers/temp.js";

const folder = testFolder("each");
const EXAMPLES = join(ROOT, "examples");

/** A scenario of the bundled openai agent against a managed fake-llm, its model replayed. */
function openaiScenario(prompt: string, mode: "complete" | "stream", faults = ""): string {
  return `schema_version: 2
name: openai-replay
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(BIN)}, fake-llm, --port, "{port}"]
      readiness: { path: /health }
    replay:
      cassette: cassettes/llm.jsonl
workload:
  name: openai-agent
  command: [${JSON.stringify(process.execPath)}, llm-agents/openai-agent.mjs]
  cwd: ${JSON.stringify(EXAMPLES)}
  env:
    LLM_API_URL: \${AGENTCHAOS_LLM_URL}
    LLM_MODE: ${mode}
    LLM_PROMPT: ${JSON.stringify(prompt)}
    LLM_CALL_ATTEMPTS: "3"
${faults}
success:
  exit_code: 0
timeout_seconds: 30
`;
}

interface RunOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: { result: string; reason_code: string; diagnostics?: string[] };
  readonly events: { type: string; payload: Record<string, unknown> }[];
  readonly agentOutput: string;
}

/** A `record` or `run` of the CLI core in-process, in the test's folder (or `cwd`), and what it wrote. */
async function cli(args: string[], outputDir: string, cwd: string = folder.path): Promise<RunOutcome> {
  const run = await runInProcess([...args, "--output-dir", outputDir], cwd);
  return { ...run, ...(await runFiles(outputDir)) };
}

/** The report, events and agent output of the one run under an output folder. */
async function runFiles(outputDir: string): Promise<Omit<RunOutcome, "code" | "stdout" | "stderr">> {
  const runs = await readdir(outputDir).catch(() => [] as string[]);
  const runDir = join(outputDir, runs.sort().at(-1) ?? "none");
  const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8").catch(() => "{}"));
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8").catch(() => ""))
    .trimEnd()
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  const agentOutput = await readFile(join(runDir, "stdout.log"), "utf8").catch(() => "");
  return { report, events, agentOutput };
}

/**
 * "Say hello" recorded once, by the built CLI's `record`, before the tests: the tests that need
 * that cassette copy it into their own folder instead of recording the same completion again.
 */
let hello: { folder: { path: string; remove: () => Promise<void> }; recorded: RunOutcome };
beforeAll(async () => {
  const shared = await tempDir();
  await writeFile(join(shared.path, "scenario.yaml"), openaiScenario("Say hello", "complete"));
  const outputDir = join(shared.path, "record");
  const run = await runBuiltCli(["record", "scenario.yaml", "--output-dir", outputDir], { cwd: shared.path });
  hello = { folder: shared, recorded: { ...run, ...(await runFiles(outputDir)) } };
}, 120_000);
afterAll(() => hello?.folder.remove());

/** The test's folder with the shared "Say hello" cassette in cassettes/llm.jsonl. */
async function withHelloCassette(): Promise<void> {
  await mkdir(join(folder.path, "cassettes"));
  await copyFile(
    join(hello.folder.path, "cassettes", "llm.jsonl"),
    join(folder.path, "cassettes", "llm.jsonl"),
  );
}

const types = (outcome: RunOutcome): string[] => outcome.events.map((event) => event.type);

describe("record, then replay with nothing upstream", () => {
  it("gives the same agent output and verdict as the live run, for a plain and a streamed completion", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    const { recorded } = hello;
    expect(recorded.stderr).toBe("");
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/llm: 1 interactions -> cassettes\/llm\.jsonl/);
    expect(types(recorded)).toContain("DEPENDENCY_STARTED");

    // The stream is added to the same cassette.
    await withHelloCassette();
    await writeFile(scenario, openaiScenario("Say hello", "stream"));
    const refused = await cli(["record", "scenario.yaml"], join(folder.path, "refused"));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /cassette cassettes\/llm\.jsonl of llm exists; use --force .* or --append/,
    );
    const streamed = await cli(["record", "scenario.yaml", "--append"], join(folder.path, "record-stream"));
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toMatch(/llm: 1 new interactions -> cassettes\/llm\.jsonl/);

    for (const [mode, live] of [
      ["complete", recorded],
      ["stream", streamed],
    ] as const) {
      await writeFile(scenario, openaiScenario("Say hello", mode));
      const replayed = await cli(["run", "scenario.yaml"], join(folder.path, `replay-${mode}`));
      expect(replayed.stderr).toBe("");
      expect(replayed.code).toBe(0);
      // The agent also prints how long its stream took to arrive: a measurement, not content.
      expect(withoutTiming(replayed.agentOutput)).toBe(withoutTiming(live.agentOutput));
      expect(replayed.report.result).toBe(live.report.result);
      expect(replayed.report.reason_code).toBe(live.report.reason_code);
      expect(types(replayed)).not.toContain("DEPENDENCY_STARTED");
      expect(types(replayed)).not.toContain("DEPENDENCY_READY");
      // Replay is an addition: its runs write events schema 3 and report schema 5.
      expect(
        replayed.events.every((event) => (event as { schema_version?: number }).schema_version === 3),
      ).toBe(true);
      expect((replayed.report as { schema_version?: number }).schema_version).toBe(5);
      const started = replayed.events.find((event) => event.type === "REPLAY_STARTED");
      expect(started?.payload).toEqual({
        kind: "REPLAY_STARTED",
        dependency: "llm",
        cassette: "cassettes/llm.jsonl",
        interactions: 2,
      });
      expect(replayed.stdout).toMatch(/llm +replaying cassettes\/llm\.jsonl \(2 interactions\)/);
    }
  }, 120_000);

  it("gives a faulted replay the verdict of the faulted live run it was recorded from", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    const fault = `faults:
  - id: llm-503
    type: http_error
    target: { method: POST, path: /v1/chat/completions }
    trigger: { occurrence: 1 }
    status_code: 503`;
    await writeFile(scenario, openaiScenario("Say hello", "complete", fault));
    const live = await cli(["record", "scenario.yaml"], join(folder.path, "record"));
    expect(live.report.result).toBe("RECOVERED");
    const replayed = await cli(["run", "scenario.yaml"], join(folder.path, "replay"));
    expect(replayed.code).toBe(live.code);
    expect(replayed.report.result).toBe("RECOVERED");
    expect(replayed.report.reason_code).toBe(live.report.reason_code);
    expect(replayed.agentOutput).toBe(live.agentOutput);
  }, 120_000);

  it("ends a run whose request was never recorded REPLAY_MISMATCH, naming the pointer, never the value", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    expect(hello.recorded.code).toBe(0);
    await withHelloCassette();
    await writeFile(scenario, openaiScenario("A changed prompt zqx", "complete"));
    const replayed = await cli(["run", "scenario.yaml"], join(folder.path, "replay"));
    expect(replayed.code).toBe(3);
    expect(replayed.report.result).toBe("FAILED");
    expect(replayed.report.reason_code).toBe("REPLAY_MISMATCH");
    const message =
      /replay mismatch on llm: POST \/v1\/chat\/completions was not recorded; the nearest recorded POST \/v1\/chat\/completions differs at \/messages\/0\/content/;
    expect(replayed.stdout).toMatch(message);
    expect(JSON.stringify(replayed.report)).toMatch(message);
    const failed = replayed.events.find((event) => event.type === "OPERATION_FAILED");
    expect(failed?.payload).toMatchObject({ failure_kind: "replay_mismatch", status_code: 599 });
    for (const text of [replayed.stdout, JSON.stringify(replayed.report), JSON.stringify(replayed.events)])
      expect(text).not.toContain("zqx");
  }, 120_000);

  it("keys requests by the scenario's match, not the one the cassette was recorded with", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    expect(hello.recorded.code).toBe(0);
    await withHelloCassette();
    const header = JSON.parse(
      (await readFile(join(folder.path, "cassettes", "llm.jsonl"), "utf8")).split("\n")[0] as string,
    );
    expect(header.match).toEqual(["method", "path", "body"]);
    // Without the body in the key, a changed prompt is the same request.
    await writeFile(
      scenario,
      openaiScenario("A changed prompt", "complete").replace(
        "cassette: cassettes/llm.jsonl",
        "cassette: cassettes/llm.jsonl\n      match: [method, path]",
      ),
    );
    const replayed = await cli(["run", "scenario.yaml"], join(folder.path, "replay"));
    expect(replayed.report.reason_code).toBe("BASELINE_SUCCEEDED");
    expect(replayed.code).toBe(0);
    expect(replayed.agentOutput).toBe("Answer: Echo: Say hello\n");
  }, 120_000);
});

describe("cassettes that cannot be used", () => {
  it("validate notes a missing cassette, run refuses it naming the file and the record command", async () => {
    await writeFile(join(folder.path, "scenario.yaml"), openaiScenario("Say hello", "complete"));
    const validated = await runBuiltCli(["validate", "scenario.yaml"], { cwd: folder.path });
    expect(validated.code).toBe(0);
    expect(validated.stdout).toMatch(
      /cassette cassettes\/llm\.jsonl of llm does not exist yet; record it with: agentchaos record scenario\.yaml --dependency llm/,
    );
    const run = await cli(["run", "scenario.yaml"], join(folder.path, "runs"));
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /cassette cassettes\/llm\.jsonl of llm does not exist; record it with: agentchaos record/,
    );
    expect(types(run)).not.toContain("DEPENDENCY_STARTED");
    expect(types(run)).not.toContain("WORKLOAD_STARTED");
  }, 60_000);

  it("validate accepts a cassette outside the scenario's folder tree and says where it is", async () => {
    const outside = join(folder.path, "elsewhere", "llm.jsonl");
    await writeFile(
      join(folder.path, "scenario.yaml"),
      openaiScenario("Say hello", "complete").replace(
        "cassette: cassettes/llm.jsonl",
        "cassette: ../elsewhere/llm.jsonl",
      ),
    );
    await mkdir(join(folder.path, "scenarios"));
    await rename(join(folder.path, "scenario.yaml"), join(folder.path, "scenarios", "scenario.yaml"));
    const validated = await runInProcess(["validate", "scenarios/scenario.yaml"], folder.path);
    expect(validated.code).toBe(0);
    expect(validated.stdout).toContain(
      `Note: the cassette of llm is outside the scenario's folder: ${outside}`,
    );
    expect(validated.stdout).toMatch(/cassette \.\.\/elsewhere\/llm\.jsonl of llm does not exist yet/);
  });

  it("validate exits 2 and run exits 3 on a broken cassette, naming file and line", async () => {
    await writeFile(join(folder.path, "scenario.yaml"), openaiScenario("Say hello", "complete"));
    await withHelloCassette();
    const path = join(folder.path, "cassettes", "llm.jsonl");
    const text = await readFile(path, "utf8");
    await writeFile(path, text.slice(0, text.length - 20));
    const validated = await runInProcess(["validate", "scenario.yaml"], folder.path);
    expect(validated.code).toBe(2);
    expect(validated.stderr).toMatch(/^Invalid cassette: cassette cassettes\/llm\.jsonl, line 2: /);
    const run = await cli(["run", "scenario.yaml"], join(folder.path, "broken"));
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/cassette cassettes\/llm\.jsonl, line 2: /);
    expect(types(run)).not.toContain("WORKLOAD_STARTED");
  }, 60_000);
});

/** The agent's output without the one line that reports a duration. */
function withoutTiming(output: string): string {
  return output.replace(/^Stream spread ms: \d+$/m, "Stream spread ms: (measured)");
}

/**
 * Record and replay of an MCP server. The agent and the notes server speak plain JSON-RPC (no SDK):
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

/** A `record` or `run` of the CLI core in-process in the test's folder, `env` set for its length. */
async function mcpCli(args: string[], outputDir: string, env: Record<string, string>): Promise<RunOutcome> {
  const run = await runInProcessWithEnv([...args, "--output-dir", outputDir], folder.path, env);
  return { ...run, ...(await runFiles(outputDir)) };
}

/** Set once the cassette is recorded. */
let replaying = false;
const SECRET = "planted-note-secret-7781";

describe.each(["http", "stdio"] as const)("record and replay of an MCP server over %s", (transport) => {
  beforeEach(() => {
    replaying = false;
  });

  it("replays with no server: same output and verdict, faults as live, a changed request named by pointer", async () => {
    const scenario = join(folder.path, "scenario.yaml");
    await writeFile(scenario, notesScenario(transport));
    const env = { NOTES_PRIVATE_TEXT: SECRET };
    const recorded = await mcpCli(["record", "scenario.yaml"], join(folder.path, "record"), env);
    expect(recorded.stderr).toBe("");
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toMatch(/notes: 5 interactions -> cassettes\/notes\.jsonl/);
    replaying = true;
    const cassette = await readFile(join(folder.path, "cassettes", "notes.jsonl"), "utf8");
    expect(cassette).not.toContain(SECRET);
    expect(cassette.split("\n")[1]).toMatch(/^\{"method":"initialize"/);

    // The managed server is stopped with the recording run; nothing serves it now.
    const replayed = await mcpCli(["run", "scenario.yaml"], join(folder.path, "replay"), env);
    expect(replayed.stderr).toBe("");
    expect(replayed.code).toBe(recorded.code);
    expect(replayed.report).toMatchObject({ result: "PASSED", reason_code: "BASELINE_SUCCEEDED" });
    expect(replayed.agentOutput).toBe(recorded.agentOutput);
    expect(types(replayed)).toContain("REPLAY_STARTED");
    expect(types(replayed)).not.toContain("DEPENDENCY_STARTED");

    // An MCP tool error on the replay: the verdict of the same fault on the live server.
    await writeFile(scenario, notesScenario(transport, TOOL_ERROR, false));
    const liveFault = await mcpCli(["run", "scenario.yaml"], join(folder.path, "live-fault"), env);
    await writeFile(scenario, notesScenario(transport, TOOL_ERROR));
    const replayedFault = await mcpCli(["run", "scenario.yaml"], join(folder.path, "replay-fault"), env);
    expect(replayedFault.report).toMatchObject({ result: "RECOVERED", reason_code: "RECOVERY_OBSERVED" });
    expect(replayedFault.report.reason_code).toBe(liveFault.report.reason_code);
    expect(replayedFault.code).toBe(liveFault.code);
    expect(replayedFault.agentOutput).toBe(liveFault.agentOutput);

    // The agent writes another note text: that request was never recorded.
    await writeFile(scenario, notesScenario(transport));
    const changed = await mcpCli(["run", "scenario.yaml"], join(folder.path, "changed"), {
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
    const recorded = await mcpCli(["record", "scenario.yaml"], join(folder.path, "record"), {});
    expect(recorded.code).toBe(0);
    await writeFile(scenario, truthScenario(transport, true));
    const replayed = await mcpCli(["run", "scenario.yaml"], join(folder.path, "replay"), {});
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
