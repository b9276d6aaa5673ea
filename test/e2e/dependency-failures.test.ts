import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { orchestrateRun } from "../../src/runtime/orchestrator.js";
import { toRunScenario } from "../../src/scenario/legacy/upgrade.js";
import { parseScenario } from "../../src/scenario/load.js";
import { groupAlive, processAlive } from "../../src/support/process-group.js";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { runInProcess } from "../helpers/in-process.js";
import { fixtureDependency, freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";
import { schema1Source } from "../helpers/schema-1-source.js";

const dir = testFolder("each");
let foreign: Server | null = null;
const foreignServers: Server[] = [];

afterEach(async () => {
  await new Promise((resolve) => (foreign === null ? resolve(null) : foreign.close(resolve)));
  foreign = null;
  for (const server of foreignServers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A foreign HTTP server answering everything on both loopback addresses at one port. */
async function foreignOnLoopback(): Promise<number> {
  const port = await freePort();
  for (const host of ["127.0.0.1", "::1"]) {
    const server = createServer((_request, response) => response.end("foreign"));
    foreignServers.push(server);
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
  }
  return port;
}

interface Run {
  report: { result: string; reason_code: string; diagnostics: string[] };
  events: { type: string; payload: Record<string, unknown> }[];
}

async function readRun(outputDir: string): Promise<Run> {
  const runDir = onlyRunDir(outputDir);
  const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
  return { report, events };
}

function scenarioWith(dependency: string, workload: readonly string[], extra = ""): string {
  return `schema_version: 1
name: dependency-failure
${dependency}workload:
  command: ${yamlList(workload)}
success:
  exit_code: 0
${extra}`;
}

const agent = [
  process.execPath,
  "-e",
  "fetch(process.env.AGENTCHAOS_PROXY_URL + '/x').then(() => process.exit(0))",
];

describe("a run that cannot end never starts: malformed user information in base_url (defect 1)", () => {
  it("is refused by run as by validate, before anything is started, and the command returns", async () => {
    const port = await freePort();
    const dependency = fixtureDependency(port).replace(
      `base_url: http://127.0.0.1:${port}`,
      `base_url: http://us%zzer:pw@127.0.0.1:${port}`,
    );
    const file = await writeScenario(dir.path, "escape", scenarioWith(dependency, agent));
    const out = join(dir.path, "runs");
    const validated = await runBuiltCli(["validate", file], { timeoutMs: 20_000 });
    expect(validated.code).toBe(2);
    const result = await runBuiltCli(["run", file, "--output-dir", out], { timeoutMs: 20_000 });
    expect(result.signal).toBeNull();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("dependency.base_url");
    expect(result.stderr).not.toContain("pw@");
  });

  it("an error after the dependency started still stops it (a scenario that skipped validation)", async () => {
    const port = await freePort();
    const file = await writeScenario(dir.path, "valid", scenarioWith(fixtureDependency(port), agent));
    const valid = schema1Source(parseScenario(await readFile(file), file));
    const scenario = {
      ...valid,
      dependency: { ...valid.dependency, baseUrl: `http://us%zzer:pw@127.0.0.1:${port}` },
    };
    const outcome = await orchestrateRun(toRunScenario(scenario), { outputDir: join(dir.path, "runs") });
    expect(outcome.report.reason_code).toBe("INTERNAL_ERROR");
    expect(outcome.exitCode).toBe(3);
    const run = await readRun(join(dir.path, "runs"));
    expect(run.events.map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED",
      "RUN_ERROR",
      "DEPENDENCY_STOPPED",
      "RUN_COMPLETED",
    ]);
    const pid = run.events[1]?.payload.pid as number;
    await eventually(() => !processAlive(pid) && !groupAlive(pid), {
      what: "every process it started ended",
    });
  });
});

describe("a verdict against the wrong process (defect 2)", () => {
  it("a fixed dependency port already taken fails setup before the dependency starts", async () => {
    const port = await freePort();
    foreign = createServer((_request, response) => response.end("foreign"));
    await new Promise<void>((resolve) => foreign?.listen(port, "127.0.0.1", resolve));
    const file = await writeScenario(dir.path, "busy", scenarioWith(fixtureDependency(port), agent));
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("Result: FAILED\nReason: DEPENDENCY_START_FAILED\n");
    const run = await readRun(out);
    expect(run.report.diagnostics).toEqual([`dependency port ${port} is already in use by another process`]);
    expect(run.events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR", "RUN_COMPLETED"]);
  });

  it("a localhost base URL is checked on every loopback address it names", async () => {
    const port = await freePort();
    foreign = createServer((_request, response) => response.end("foreign"));
    await new Promise<void>((resolve) => foreign?.listen(port, "127.0.0.1", resolve));
    const dependency = fixtureDependency(port).replace(
      `base_url: http://127.0.0.1:${port}`,
      `base_url: http://localhost:${port}/v1`,
    );
    const file = await writeScenario(dir.path, "busy-localhost", scenarioWith(dependency, agent));
    const result = await runBuiltCli(["run", file, "--output-dir", join(dir.path, "runs")]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("Reason: DEPENDENCY_START_FAILED\n");
  });

  // Every way to write this machine's address in base_url, as the URL parser leaves it or not.
  const spellings = [
    "127.0.0.1",
    "127.1",
    "0177.0.0.1",
    "127.0.0.1.",
    "0.0.0.0",
    "localhost",
    "LOCALHOST.",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "[::]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[::ffff:0.0.0.0]",
  ];
  const neverListens = yamlList([process.execPath, join(PROGRAMS, "forever.mjs")]);
  const passingAgent = [
    process.execPath,
    "-e",
    "fetch(process.env.AGENTCHAOS_PROXY_URL + '/x').finally(() => process.exit(0))",
  ];

  it.each(spellings)(
    "schema 1: a taken port behind base_url host %s fails setup as 127.0.0.1 does",
    async (host) => {
      const port = await foreignOnLoopback();
      const dependency = `dependency:
  type: http
  base_url: http://${host}:${port}
  start:
    command: ${neverListens}
    readiness: {path: /health, timeout_seconds: 5}
`;
      const file = await writeScenario(dir.path, "spelling", scenarioWith(dependency, passingAgent));
      const out = join(dir.path, "runs");
      const result = await runInProcess(["run", file, "--output-dir", out]);
      expect(result.stdout).toContain("Result: FAILED\nReason: DEPENDENCY_START_FAILED\n");
      expect(result.code).toBe(3);
      const run = await readRun(out);
      expect(run.report.diagnostics).toEqual([
        `dependency port ${port} is already in use by another process`,
      ]);
      expect(run.events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR", "RUN_COMPLETED"]);
    },
  );

  it.each(
    spellings.flatMap((host) => [
      [host, "http"],
      [host, "mcp"],
    ]),
  )("schema 2: a taken port behind base_url host %s fails setup (%s dependency)", async (host, protocol) => {
    const port = await foreignOnLoopback();
    const file = await writeScenario(
      dir.path,
      "spelling-v2",
      `schema_version: 2
name: spelling
dependencies:
  api:
    type: http
${protocol === "mcp" ? "    protocol: mcp\n" : ""}    base_url: http://${host}:${port}
    start:
      command: ${neverListens}
      readiness: {path: /health, timeout_seconds: 5}
workload:
  command: ${yamlList(passingAgent)}
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    const result = await runInProcess(["run", file, "--output-dir", out]);
    expect(result.stdout).toContain("Result: FAILED\nReason: DEPENDENCY_START_FAILED\n");
    expect(result.code).toBe(3);
    const run = await readRun(out);
    expect(run.report.diagnostics).toEqual([
      `dependency api: port ${port} is already in use by another process`,
    ]);
    expect(run.events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR", "RUN_COMPLETED"]);
  });

  it("a managed dependency that exits during the run fails it and stops the workload", async () => {
    const port = await freePort();
    const file = await writeScenario(
      dir.path,
      "dies",
      scenarioWith(
        fixtureDependency(port, ["--exit-after", "300"]),
        [process.execPath, join(PROGRAMS, "forever.mjs")],
        "timeout_seconds: 30\n",
      ),
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out], { timeoutMs: 25_000 });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("Result: FAILED\nReason: DEPENDENCY_START_FAILED\n");
    const run = await readRun(out);
    expect(run.report.diagnostics).toEqual(["dependency exited with code 1 during the run"]);
    expect(run.events.map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED",
      "DEPENDENCY_READY",
      "INJECTOR_STARTED",
      "WORKLOAD_STARTED",
      "RUN_ERROR",
      "WORKLOAD_COMPLETED",
      "DEPENDENCY_STOPPED",
      "RUN_COMPLETED",
    ]);
    const stopped = run.events.find((event) => event.type === "DEPENDENCY_STOPPED");
    expect(stopped?.payload.exit_code).toBe(1);
    const pids = run.events
      .filter((e) => typeof e.payload.pid === "number")
      .map((e) => e.payload.pid as number);
    await eventually(() => pids.every((pid) => !groupAlive(pid)), { what: "every process it started ended" });
  });
});
