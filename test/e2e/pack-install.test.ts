import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { groupAlive } from "../../src/support/process-group.js";
import { BIN, onlyRunDir, ROOT } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { shellCaCerts } from "../helpers/shell-ca-certs.js";
import { tempDir } from "../helpers/temp.js";

const run = promisify(execFile);

/**
 * The environment of a user's shell: without the variables `npm test` sets for this repository
 * and without its `node_modules/.bin` on PATH, so nothing resolves from this checkout.
 */
function userEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.toLowerCase().startsWith("npm_") && name !== "INIT_CWD")
      env[name] = value;
  }
  // The shell's extra CA bundle, which the test run itself does without (vitest.config.ts).
  const caCerts = shellCaCerts();
  if (caCerts !== undefined) env.NODE_EXTRA_CA_CERTS = caCerts;
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((entry) => !entry.startsWith(ROOT))
    .join(delimiter);
  return env;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const groups = new Set<number>();

/** Stops a run a failed test left behind: SIGTERM to its process group (agentchaos then stops its dependency), then SIGKILL. */
async function stopGroups(): Promise<void> {
  const signal = (pid: number, name: NodeJS.Signals): void => {
    try {
      process.kill(-pid, name);
    } catch {
      groups.delete(pid);
    }
  };
  for (const pid of groups) signal(pid, "SIGTERM");
  // Up to 3 s for the runs to stop their dependencies and exit, then no more waiting.
  const ended = () => [...groups].every((pid) => !groupAlive(pid));
  await eventually(ended, { timeoutMs: 3_000, what: "the runs left behind ended" }).catch(() => {});
  for (const pid of groups) signal(pid, "SIGKILL");
  groups.clear();
}

/** Runs `npx agentchaos ...` in the project, as a user would, in its own process group. */
function npxAgentchaos(
  cwd: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("npx", ["agentchaos", ...args], {
      cwd,
      env: userEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid !== undefined) groups.add(child.pid);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.on("close", (code) => {
      if (child.pid !== undefined) groups.delete(child.pid);
      resolve({ code, stdout, stderr });
    });
  });
}

// A user's agent: plain fetch, the base URL from AGENTCHAOS_PROXY_URL, one retry on a 5xx, and a
// tool round trip with the fake model (the script answers the question with a tool call).
const AGENT = `const base = process.env.AGENTCHAOS_PROXY_URL + "/v1";
async function complete(messages) {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(base + "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-dummy" },
      body: JSON.stringify({ model: "fake-gpt", messages, tools: [{ type: "function", function: { name: "get_weather" } }] }),
    });
    if (response.ok) return (await response.json()).choices[0].message;
    if (response.status < 500 || attempt === 3) throw new Error("status " + response.status);
  }
}
const messages = [{ role: "user", content: "What is the weather in Paris?" }];
const first = await complete(messages);
const call = first.tool_calls[0];
const city = JSON.parse(call.function.arguments).city;
messages.push(first, { role: "tool", tool_call_id: call.id, content: "sunny in " + city });
const answer = await complete(messages);
console.log("Answer: " + answer.content);
`;

const SCRIPT = `- when: {tool_result: true}
  answer: {text: It is sunny in Paris.}
- answer:
    tool_calls:
      - name: get_weather
        arguments: {city: Paris}
`;

/** How a scenario starts the fake model: through npx, or by the `agentchaos` that npx puts on PATH. */
const FAKE_LLM_THROUGH_NPX = "npx, agentchaos";
const FAKE_LLM_ON_PATH = "agentchaos";

function scenario(name: string, port: number, fault: string, fakeLlm = FAKE_LLM_THROUGH_NPX): string {
  return `schema_version: 1
name: ${name}
dependency:
  type: http
  base_url: http://127.0.0.1:${port}
  start:
    command: [${fakeLlm}, fake-llm, --port, "${port}", --script, fake-llm.yaml]
    readiness:
      path: /health
      timeout_seconds: 30
workload:
  name: my-agent
  command: [node, agent.mjs]
${fault}success:
  exit_code: 0
timeout_seconds: 60
`;
}

const FAULT = `fault:
  type: http_error
  target:
    method: POST
    path: /v1/chat/completions
  trigger:
    occurrence: 2
  status_code: 503
`;

const SCHEMA_2 = `schema_version: 2
name: my-agent-schema-2
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: [npx, agentchaos, fake-llm, --port, "{port}", --script, fake-llm.yaml]
      readiness: {path: /health, timeout_seconds: 30}
workload:
  name: my-agent
  command: [node, agent.mjs]
faults:
  - type: http_error
    target: {method: POST, path: /v1/chat/completions}
    trigger: {occurrence: 2}
    status_code: 503
success:
  exit_code: 0
timeout_seconds: 60
`;

interface SuiteRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The run folder of a scenario file of the suite. */
  readonly runDir: (file: string) => string;
}

let suiteRun: Promise<SuiteRun> | undefined;

/**
 * The two fault scenarios, run once by one `npx agentchaos suite` (two at a time) for the tests
 * that read them: one npm start and one CLI start instead of one each per scenario. The schema-1
 * scenario's fake model is the `agentchaos` on the PATH npx gives the run; the schema-2 one's
 * starts through npx.
 */
function faultSuite(): Promise<SuiteRun> {
  suiteRun ??= (async () => {
    const port = await freePort();
    await writeFile(join(project, "recovery.yaml"), scenario("my-agent-503", port, FAULT, FAKE_LLM_ON_PATH));
    await writeFile(join(project, "schema2.yaml"), SCHEMA_2);
    const args = ["suite", "recovery.yaml", "schema2.yaml", "--jobs", "2", "--output-dir", "suite-runs"];
    const result = await npxAgentchaos(project, args);
    const [suiteId] = await readdir(join(project, "suite-runs"));
    const suiteDir = join(project, "suite-runs", suiteId as string);
    const { entries } = JSON.parse(await readFile(join(suiteDir, "suite.json"), "utf8")) as {
      entries: { path: string; run_folder: string }[];
    };
    const runDir = (file: string): string => {
      const entry = entries.find((candidate) => candidate.path === file);
      if (entry === undefined) throw new Error(`the suite ran no ${file}: ${result.stdout}`);
      return join(suiteDir, entry.run_folder);
    };
    return { ...result, runDir };
  })();
  return suiteRun;
}

let folder: { path: string; remove: () => Promise<void> };
let project = "";
let packed: string[] = [];
let installOutput = "";

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error("dist/ is not built: run npm run build first");
  folder = await tempDir("agentchaos-pack-");
  // --ignore-scripts: pack the dist/ that is already built (prepare would rebuild it under other
  // tests); the prepack and postpack steps, which shape the packed package.json, run by hand.
  const manifestStep = (step: string) =>
    run(process.execPath, ["scripts/pack-manifest.mjs", step], { cwd: ROOT });
  await manifestStep("strip");
  let stdout: string;
  try {
    ({ stdout } = await run(
      "npm",
      ["pack", "--json", "--ignore-scripts", "--pack-destination", folder.path],
      {
        cwd: ROOT,
        env: userEnv(),
      },
    ));
  } finally {
    await manifestStep("restore");
  }
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  if (info === undefined) throw new Error("npm pack printed no package");
  packed = info.files.map((file) => file.path);
  project = join(folder.path, "my-agent");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    '{ "name": "my-agent", "private": true, "type": "module" }\n',
  );
  const installed = await run(
    "npm",
    ["install", "-D", join(folder.path, info.filename), "--prefer-offline", "--no-audit", "--no-fund"],
    { cwd: project, env: userEnv() },
  );
  installOutput = `${installed.stdout}${installed.stderr}`;
  await writeFile(join(project, "agent.mjs"), AGENT);
  await writeFile(join(project, "fake-llm.yaml"), SCRIPT);
}, 240_000);

afterEach(stopGroups);

afterAll(async () => {
  await stopGroups();
  await folder?.remove();
});

describe("the packed package installed into another project", () => {
  it("ships the built CLI and the README, not the sources, tests or examples", () => {
    expect(packed).toEqual(
      expect.arrayContaining(["package.json", "README.md", "dist/bin/agentchaos.js", "dist/index.js"]),
    );
    expect(packed.filter((path) => /^(src|test|examples|bench|scripts)\//.test(path))).toEqual([]);
    // The scenario JSON Schema, once the repository has it, ships for editors to use.
    if (existsSync(join(ROOT, "schema", "scenario.schema.json"))) {
      expect(packed).toContain("schema/scenario.schema.json");
    }
  });

  it("ships the Apache-2.0 LICENSE and a package.json without prepare, so installing it warns about nothing", async () => {
    expect(packed).toContain("LICENSE");
    const installedDir = join(project, "node_modules", "agent-chaos");
    expect(await readFile(join(installedDir, "LICENSE"), "utf8")).toContain("Apache License");
    const manifest = JSON.parse(await readFile(join(installedDir, "package.json"), "utf8"));
    expect(manifest.license).toBe("Apache-2.0");
    expect(Object.keys(manifest.scripts ?? {})).not.toEqual(expect.arrayContaining(["prepare"]));
    expect(manifest.scripts?.prepare).toBeUndefined();
    expect(installOutput).not.toMatch(/warn/i);
    // The repository keeps prepare, so an install from git still builds dist/.
    const source = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    expect(source.scripts.prepare).toBe("npm run build");
    expect(existsSync(join(ROOT, "package.json.packing"))).toBe(false);
  });

  it("runs a baseline scenario whose dependency is npx agentchaos fake-llm: PASSED, exit 0", {
    timeout: 120_000,
  }, async () => {
    const port = await freePort();
    await writeFile(join(project, "baseline.yaml"), scenario("my-agent-baseline", port, ""));
    const result = await npxAgentchaos(project, ["run", "baseline.yaml", "--output-dir", "runs"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Result: PASSED\n");
    expect(result.stdout).toContain("[my-agent OUT] Answer: It is sunny in Paris.\n");
    const report = JSON.parse(await readFile(join(onlyRunDir(join(project, "runs")), "report.json"), "utf8"));
    expect(report).toMatchObject({ result: "PASSED", reason_code: "BASELINE_SUCCEEDED" });
  });

  it("runs a schema-2 scenario on {port} whose fake model starts through npx: RECOVERED, exit 0", {
    timeout: 120_000,
  }, async () => {
    const suite = await faultSuite();
    expect(suite.stderr).toBe("");
    expect(suite.code).toBe(0);
    expect(suite.stdout).toMatch(/^RECOVERED +RECOVERY_OBSERVED +\S+ +my-agent-schema-2$/m);
    const runDir = suite.runDir("schema2.yaml");
    expect(await readFile(join(runDir, "stdout.log"), "utf8")).toContain("Answer: It is sunny in Paris.\n");
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    expect(report).toMatchObject({ schema_version: 4, result: "RECOVERED", faults_injected: 1 });
  });

  it("runs a scenario with a 503 on the second completion, in a suite, its fake model the agentchaos on PATH: the agent retries, RECOVERED, exit 0", {
    timeout: 120_000,
  }, async () => {
    const suite = await faultSuite();
    expect(suite.code).toBe(0);
    expect(suite.stdout).toMatch(/^RECOVERED +RECOVERY_OBSERVED +\S+ +my-agent-503$/m);
    const runDir = suite.runDir("recovery.yaml");
    expect(await readFile(join(runDir, "stdout.log"), "utf8")).toContain("Answer: It is sunny in Paris.\n");
    const report = JSON.parse(await readFile(join(runDir, "report.json"), "utf8"));
    expect(report).toMatchObject({ result: "RECOVERED", faults_injected: 1, retries_observed: 1 });
  });
});
