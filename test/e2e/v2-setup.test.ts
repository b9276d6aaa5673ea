// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the tests write ${...} references into scenarios
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { processAlive } from "../../src/runtime/process-group.js";
import { onlyRunDir, runBuiltCli, testFolder } from "../helpers/cli.js";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";
import { eventually } from "../helpers/temp.js";

const dir = testFolder("each");

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
    expect(result.stdout).toContain(
      "RUN_ERROR      DEPENDENCY_START_FAILED: dependency slow did not become ready within 1s (polled GET /health under its base_url; no status 200-399)",
    );
    const events = await readEvents(out);
    const types = events.map(
      (event) => `${event.type}${event.payload.dependency ? ` ${event.payload.dependency}` : ""}`,
    );
    expect(types).toEqual([
      "RUN_STARTED",
      "DEPENDENCY_STARTED first",
      "DEPENDENCY_STARTED slow",
      "DEPENDENCY_READY first",
      "RUN_ERROR",
      "DEPENDENCY_STOPPED slow",
      "DEPENDENCY_STOPPED first",
      "RUN_COMPLETED",
    ]);
    const pids = events
      .filter((event) => typeof event.payload.pid === "number")
      .map((e) => e.payload.pid as number);
    expect(pids).toHaveLength(2);
    expect(await eventually(() => pids.every((pid) => !processAlive(pid)), 3000)).toBe(true);
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
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
    expect(result.code).toBe(3);
    const events = await readEvents(out);
    expect(events.find((event) => event.type === "RUN_ERROR")?.payload).toEqual({
      kind: "RUN_ERROR",
      reason_code: "DEPENDENCY_START_FAILED",
      message: "dependency broken exited with code 7 before becoming ready",
    });
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
    const result = await runBuiltCli(["run", file, "--output-dir", out]);
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
