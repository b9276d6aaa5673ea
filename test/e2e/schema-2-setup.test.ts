// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests write ${...} references into scenarios
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/support/process-group.js";
import { onlyRunDir, ROOT, runBuiltCli, testFolder } from "../helpers/cli.js";
import { eventually } from "../helpers/eventually.js";
import { runCliHere } from "../helpers/in-process-cli.js";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

// The runs and inspects go through the CLI code in this process; the agents and dependencies are
// real processes. The never-ready run races a 1 s readiness limit against the other dependency's
// start, so it runs in the built executable, whose code is loaded before any dependency starts.

interface Event {
  type: string;
  payload: Record<string, unknown>;
}

async function readEvents(outputDir: string): Promise<Event[]> {
  return (await readFile(join(onlyRunDir(outputDir), "events.jsonl"), "utf8"))
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Event);
}

/** A managed http dependency on `{port}` running the http-ok fixture with extra arguments. */
function dependency(name: string, extra: string[] = [], readinessSeconds = 5): string {
  return `  ${name}:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, join(PROGRAMS, "http-ok.mjs"), "--port", "{port}", ...extra])}
      readiness: {path: /health, timeout_seconds: ${readinessSeconds}}
`;
}

async function scenario(name: string, dependencies: string, workload: string[]): Promise<string> {
  return writeScenario(
    dir.path,
    name,
    `schema_version: 2\nname: ${name}\ndependencies:\n${dependencies}workload:\n  command: ${yamlList(workload)}\nsuccess:\n  exit_code: 0\n`,
  );
}

describe("schema-2 setup", () => {
  it("a dependency that never becomes ready fails the run naming it, and every other dependency is stopped", async () => {
    const file = await scenario(
      "never-ready",
      dependency("first") + dependency("slow", ["--ready-after", "600000"], 1),
      [process.execPath, "-e", "0"],
    );
    const out = join(dir.path, "runs");
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /^\d{4}\.\d{3} {2}RUN_ERROR {6}DEPENDENCY_START_FAILED: dependency slow did not become ready within 1s: polled GET \/health (once|\d+ times), last answer: (status 503|none within 0\.5s|connection refused); the process is still running; its output is in dependencies\/slow\.stdout\.log and dependencies\/slow\.stderr\.log$/m,
    );
    // The summary repeats the reason under Diagnostics.
    expect(result.stdout).toContain("\nDiagnostics:\n  dependency slow did not become ready within 1s: ");
    expect(result.stdout).toContain("Workload exit:          not started\n");
    const events = await readEvents(out);
    const types = events.map(
      (event) => `${event.type}${event.payload.dependency ? ` ${event.payload.dependency}` : ""}`,
    );
    // `first` is usually ready well within `slow`'s 1 s; on a machine busy enough that it is not,
    // the run has ended before it could be, and its readiness is simply not recorded.
    const firstReady = types.includes("DEPENDENCY_READY first") ? ["DEPENDENCY_READY first"] : [];
    expect(types).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED first",
      "DEPENDENCY_STARTED slow",
      ...firstReady,
      "RUN_ERROR",
      "DEPENDENCY_STOPPED slow",
      "DEPENDENCY_STOPPED first",
      "RUN_COMPLETED",
    ]);
    const pids = events
      .filter((event) => typeof event.payload.pid === "number")
      .map((e) => e.payload.pid as number);
    expect(pids).toHaveLength(2);
    await eventually(() => pids.every((pid) => !processAlive(pid)), {
      what: "every process it started ended",
    });
    const report = JSON.parse(await readFile(join(onlyRunDir(out), "report.json"), "utf8"));
    expect(report).toMatchObject({ result: "FAILED", reason_code: "DEPENDENCY_START_FAILED" });
  });

  it("a dependency that exits before becoming ready is named with its exit code", async () => {
    const file = await scenario(
      "exits-early",
      dependency("api") +
        `  broken:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, "-e", "process.exit(7)", "{port}"])}
      readiness: {path: /health}
`,
      [process.execPath, "-e", "0"],
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const events = await readEvents(out);
    expect(events.find((event) => event.type === "RUN_ERROR")?.payload).toEqual({
      kind: "RUN_ERROR",
      reason_code: "DEPENDENCY_START_FAILED",
      message: expect.stringMatching(
        /^dependency broken exited with code 7 after \d+\.\d{2}s, before becoming ready: (no poll of GET \/health completed|polled GET \/health (once|\d+ times), last answer: connection refused); its output is in dependencies\/broken\.stdout\.log and dependencies\/broken\.stderr\.log$/,
      ),
    });
    expect(result.stdout).toContain(
      "RUN_ERROR      DEPENDENCY_START_FAILED: dependency broken exited with code 7 after ",
    );
  });

  it("a readiness path under a base_url prefix names the path it really polled and what came back", async () => {
    const file = await scenario(
      "prefixed-readiness",
      `  llm:
    type: http
    base_url: http://127.0.0.1:{port}/v1
    start:
      command: ${yamlList([process.execPath, join(ROOT, "examples", "fake-api.mjs"), "--port", "{port}"])}
      readiness: {path: /health, timeout_seconds: 3}
`,
      [process.execPath, "-e", "0"],
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(
      /RUN_ERROR {6}DEPENDENCY_START_FAILED: dependency llm did not become ready within 3s: polled GET \/v1\/health \(base_url path \/v1 \+ readiness\.path \/health\) (once|\d+ times), last answer: status 404; the process is still running; /,
    );
  });

  it("a target that never matches under a /v1 base_url lists the methods and paths the dependency saw", async () => {
    const agent = [
      process.execPath,
      "-e",
      "const http = require('http'); const send = (p, method, body) => new Promise((done, fail) => http.request(process.env.AGENTCHAOS_LLM_URL + p, { method }, (r) => r.resume().on('end', done)).on('error', fail).end(body)); (async () => { for (const p of ['/chat/completions', '/chat/completions', '/models']) await (p === '/models' ? send(p, 'GET') : send(p, 'POST', JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }))); })()",
    ];
    const file = await writeScenario(
      dir.path,
      "wrong-target",
      `schema_version: 2
name: wrong-target
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}/v1
    start:
      command: ${yamlList([process.execPath, join(ROOT, "dist", "bin", "agentchaos.js"), "fake-llm", "--port", "{port}"])}
      readiness: {path: /health}
workload:
  command: ${yamlList(agent)}
faults:
  - id: llm-503
    type: http_error
    target: {method: POST, path: /v1/chat/completions}
    trigger: {occurrence: 1}
    status_code: 503
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(1);
    const sentence =
      "fault llm-503: the configured trigger produced no fault injection; observed on llm: POST /chat/completions (2), GET /models (1)";
    expect(result.stdout).toContain(`Reason: FAULT_NOT_TRIGGERED\n`);
    expect(result.stdout).toContain(`\nDiagnostics:\n  ${sentence}\n`);
    const inspected = await runCliHere(["inspect", onlyRunDir(out)]);
    expect(inspected.stdout).toContain(`\nDiagnostics:\n  ${sentence}\n`);
  });

  it("shows a workload stopped at the time limit as killed by SIGTERM (timeout)", async () => {
    const file = await writeScenario(
      dir.path,
      "too-slow",
      `schema_version: 2
name: too-slow
dependencies:
  api:
    type: http
    base_url: http://127.0.0.1:9
workload:
  command: ${yamlList([process.execPath, join(PROGRAMS, "forever.mjs")])}
success:
  exit_code: 0
timeout_seconds: 0.5
`,
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "Reason: WORKLOAD_TIMED_OUT\n\nWorkload exit:          killed by SIGTERM (timeout)\n",
    );
    const inspected = await runCliHere(["inspect", onlyRunDir(out)]);
    expect(inspected.stdout).toContain("Workload exit:          killed by SIGTERM (timeout)\n");
  });

  it("gives the workload every dependency's URL variable, url_env and interpolated env values", async () => {
    const file = await writeScenario(
      dir.path,
      "variables",
      `schema_version: 2
name: variables
dependencies:
${dependency("model_api")}    url_env: MODEL_URL
  tools:
    type: http
    base_url: http://127.0.0.1:9
workload:
  command: ${yamlList([process.execPath, "-e", "for (const k of ['AGENTCHAOS_MODEL_API_URL','MODEL_URL','AGENTCHAOS_TOOLS_URL','AGENTCHAOS_PROXY_URL','BASE','LITERAL']) console.log(k + '=' + process.env[k])"])}
  env:
    BASE: "\${AGENTCHAOS_MODEL_API_URL}/v1"
    LITERAL: "$\${HOME} \${NOT_A_RUN_VARIABLE}"
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    const result = await runCliHere(["run", file, "--output-dir", out]);
    expect(result.code).toBe(0);
    const events = await readEvents(out);
    const proxies = Object.fromEntries(
      events
        .filter((event) => event.type === "INJECTOR_STARTED")
        .map((event) => [event.payload.dependency, event.payload.proxy_url]),
    );
    const stdout = await readFile(join(onlyRunDir(out), "stdout.log"), "utf8");
    expect(stdout).toBe(
      [
        `AGENTCHAOS_MODEL_API_URL=${proxies.model_api}`,
        `MODEL_URL=${proxies.model_api}`,
        `AGENTCHAOS_TOOLS_URL=${proxies.tools}`,
        "AGENTCHAOS_PROXY_URL=undefined",
        `BASE=${proxies.model_api}/v1`,
        "LITERAL=${HOME} ${NOT_A_RUN_VARIABLE}",
        "",
      ].join("\n"),
    );
  });
});
