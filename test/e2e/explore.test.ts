import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { exploreScenario } from "../../src/library/explore.js";
import type { ExploreDocument } from "../../src/report/explore-document.js";
import { agentScenario, menuFile } from "../explore/scenarios.js";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { freePort, PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

async function onlyExplore(outputDir: string): Promise<{ folder: string; document: ExploreDocument }> {
  const [id, ...more] = await readdir(outputDir);
  if (id === undefined || more.length > 0) throw new Error("expected one explore folder");
  const folder = join(outputDir, id);
  return { folder, document: JSON.parse(await readFile(join(folder, "explore.json"), "utf8")) };
}

describe("the explore command", () => {
  it("marks a failure whose confirmation run passes as flaky, not failed", async () => {
    const scenario = await agentScenario(dir.path, "flaky", {
      paths: ["/a"],
      env: { FLIP_FILE: join(dir.path, "runs.count") },
    });
    const menu = await menuFile(dir.path, "menu", "- {type: http_latency, latency_ms: 1}\n");
    const out = join(dir.path, "explore");
    const result = await runBuiltCli(
      ["explore", scenario, "--menu", menu, "--baseline-runs", "1", "--jobs", "1", "--output-dir", out],
      { timeoutMs: 60_000 },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { folder, document } = await onlyExplore(out);
    expect(document.experiments).toHaveLength(1);
    const [experiment] = document.experiments;
    expect(experiment).toMatchObject({
      result: "FAILED",
      reason_code: "WORKLOAD_EXIT_CODE_MISMATCH",
      flaky: true,
      replay: null,
      confirmation: { result: "PASSED", reason_code: "FAULT_TOLERATED" },
    });
    expect(document.summary).toEqual({ experiments: 1, passed: 0, recovered: 0, failed: 0, flaky: 1 });
    expect(existsSync(join(folder, "replays"))).toBe(false);
    expect(result.stdout).toContain("flaky: api GET /a #1 | http_latency latency_ms=1");
    expect(result.stdout).toMatch(/api GET \/a #1 +flaky\n/);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(
      await readFile(join(folder, "junit.xml"), "utf8"),
    );
    const testcase = junit.testsuites.testsuite.testcase;
    expect(testcase["@_name"]).toBe("api GET /a #1 | http_latency latency_ms=1 (flaky)");
    expect(testcase.failure).toBeUndefined();
  }, 90_000);

  it("stops with exit 1, no experiments and no replays when a baseline run fails", async () => {
    const scenario = await agentScenario(dir.path, "broken", { program: ["exit-code.mjs", "4"] });
    const out = join(dir.path, "explore");
    const result = await runInProcess(["explore", scenario, "--output-dir", out], dir.path);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "baseline run 1 of 2 ended FAILED / WORKLOAD_EXIT_CODE_MISMATCH: explore needs a baseline that passes",
    );
    const { folder, document } = await onlyExplore(out);
    expect(document.status).toBe("baseline_failed");
    expect(document.baseline).toHaveLength(2);
    expect(document.experiments).toEqual([]);
    expect(existsSync(join(folder, "replays"))).toBe(false);
  }, 60_000);

  it("stops with exit 1 when the baseline times out", async () => {
    const scenario = await agentScenario(dir.path, "slow", { program: ["forever.mjs"], timeoutSeconds: 1 });
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      ["explore", scenario, "--baseline-runs", "1", "--output-dir", out],
      dir.path,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("baseline run 1 of 1 ended FAILED / WORKLOAD_TIMED_OUT");
  }, 60_000);

  it("stops with exit 3 when the baseline cannot be set up", async () => {
    const scenario = await writeScenario(
      dir.path,
      "no-dependency",
      `schema_version: 2\nname: no-dependency\ndependencies:\n  api:\n    type: http\n    base_url: http://127.0.0.1:{port}\n    start:\n      command: ${yamlList([process.execPath, join(PROGRAMS, "missing.mjs")])}\n      readiness: {path: /health, timeout_seconds: 2}\nworkload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "exit-code.mjs")])}\nsuccess:\n  exit_code: 0\n`,
    );
    const out = join(dir.path, "explore");
    const result = await runBuiltCli(["explore", scenario, "--baseline-runs", "1", "--output-dir", out]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain("ended FAILED / DEPENDENCY_START_FAILED");
  }, 60_000);

  it("runs once more a run that could not be set up, and records the second", async () => {
    const counter = join(dir.path, "starts.count");
    const scenario = await writeScenario(
      dir.path,
      "shaky",
      `schema_version: 2\nname: shaky\ndependencies:\n  api:\n    type: http\n    base_url: http://127.0.0.1:{port}\n    start:\n      command: ${yamlList([process.execPath, join(PROGRAMS, "fails-first-start.mjs"), counter, "--port", "{port}"])}\n      readiness: {path: /health}\nworkload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "explore-agent.mjs"), "/a"])}\nsuccess:\n  exit_code: 0\n`,
    );
    const menu = await menuFile(dir.path, "menu", "- {type: http_disconnect}\n");
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      ["explore", scenario, "--menu", menu, "--baseline-runs", "1", "--output-dir", out],
      dir.path,
    );
    expect(result.code).toBe(0);
    const { folder, document } = await onlyExplore(out);
    expect(document.baseline.map((run) => run.result)).toEqual(["PASSED"]);
    expect(document.experiments.map((experiment) => experiment.result)).toEqual(["RECOVERED"]);
    // The run that could not be set up keeps its folder: the baseline, its retry, the experiment.
    expect((await readdir(folder)).filter((name) => !name.includes("."))).toHaveLength(3);
  }, 60_000);

  it("stops with exit 2 when the baseline makes no operation", async () => {
    const scenario = await agentScenario(dir.path, "idle", { program: ["exit-code.mjs", "0"] });
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      ["explore", scenario, "--baseline-runs", "1", "--output-dir", out],
      dir.path,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      "the baseline made no operations: there is nothing to inject faults into",
    );
    expect((await onlyExplore(out)).document.status).toBe("no_operations");
  }, 60_000);

  it("stops with exit 2 when a menu fault fits none of the points", async () => {
    const scenario = await agentScenario(dir.path, "plain", { paths: ["/a"] });
    const menu = await menuFile(
      dir.path,
      "menu",
      "- {type: http_error, status_code: 500}\n- {type: http_stream_truncate, after_events: 1}\n",
    );
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      ["explore", scenario, "--menu", menu, "--baseline-runs", "1", "--output-dir", out],
      dir.path,
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      "menu entry [1] http_stream_truncate after_events=1 fits none of the 1 injection points",
    );
    const { document } = await onlyExplore(out);
    expect(document.status).toBe("menu_fits_no_point");
    expect(document.experiments).toEqual([]);
  }, 60_000);

  it("converts a schema-1 scenario: its dependency is api, experiments wait for its fixed port", async () => {
    const port = await freePort();
    const scenario = await writeScenario(
      dir.path,
      "schema-one",
      `schema_version: 1\nname: schema-one\ndependency:\n  type: http\n  base_url: http://127.0.0.1:${port}\n  start:\n    command: ${yamlList([process.execPath, join(PROGRAMS, "http-ok.mjs"), "--port", String(port)])}\n    readiness: {path: /health}\nworkload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "retry-get.mjs")])}\nsuccess:\n  exit_code: 0\n`,
    );
    const menu = await menuFile(
      dir.path,
      "menu",
      "- {type: http_error, status_code: 503}\n- {type: http_disconnect}\n",
    );
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      ["explore", scenario, "--menu", menu, "--jobs", "2", "--baseline-runs", "2", "--output-dir", out],
      dir.path,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const { document } = await onlyExplore(out);
    expect(document.scenario.schema_version).toBe(1);
    expect(document.points.map((point) => point.label)).toEqual(["api GET /item #1"]);
    expect(document.experiments.map((experiment) => experiment.result)).toEqual(["RECOVERED", "RECOVERED"]);
  }, 90_000);
});

describe("exploreScenario", () => {
  it("gives the same experiments for the same seed, depth 2 included, and reports what it could have run", async () => {
    const scenario = await agentScenario(dir.path, "two-calls");
    const menu = await menuFile(
      dir.path,
      "menu",
      "- {type: http_error, status_code: 503}\n- {type: http_disconnect}\n",
    );
    const done = await exploreScenario(scenario, {
      menu,
      depth: 2,
      budget: 6,
      seed: 42,
      jobs: 2,
      baselineRuns: 1,
      outputDir: join(dir.path, "one"),
    });
    expect(done.exitCode).toBe(0);
    expect(done.document.candidates).toEqual({ depth_1: 4, depth_2: 4 });
    expect(done.document.experiments.filter((experiment) => experiment.depth === 1)).toHaveLength(4);
    expect(done.document.experiments.filter((experiment) => experiment.depth === 2)).toHaveLength(2);
    // The seed alone fixes the sample (docs/explore.md, "Budget and sample": the candidates with
    // the smallest SHA-256 of `<seed>:<key>`, in matrix order), so every explore with seed 42
    // runs exactly these experiments, in this order, whatever order its parallel runs end in.
    const entries = ["http_error status_code=503", "http_disconnect"];
    const single = (path: string, entry: string) => `api GET ${path} #1 | ${entry}`;
    const singles = ["/a", "/b"].flatMap((path) => entries.map((entry) => single(path, entry)));
    const pairs = entries.flatMap((first) =>
      entries.map((second) => `${single("/a", first)} + ${single("/b", second)}`),
    );
    const rank = (key: string) => createHash("sha256").update(`42:${key}`).digest("hex");
    const sampled = [...pairs].sort((x, y) => (rank(x) < rank(y) ? -1 : 1)).slice(0, 2);
    expect(done.document.experiments.map((experiment) => experiment.label)).toEqual([
      ...singles,
      ...pairs.filter((pair) => sampled.includes(pair)),
    ]);
    for (const pair of done.document.experiments.filter((experiment) => experiment.depth === 2)) {
      expect(pair.label).toMatch(/^api GET \/a #1 \| .+ \+ api GET \/b #1 \| /);
      expect(pair.faults.map((fault) => fault.point)).toEqual(["P1", "P2"]);
      expect(pair.result).toBe("RECOVERED");
    }
    expect(done.document.settings).toMatchObject({ seed: 42, budget: 6, depth: 2, menu });
  }, 120_000);
});

describe("exploring an agent with an MCP server", () => {
  it("names MCP calls by method and tool and tries tool errors on tools/call only", async () => {
    // A plain JSON-RPC agent and server (no SDK): what is checked is how explore names and
    // faults MCP calls; the bundled MCP examples with the real SDK run in their own tests.
    const scenario = await writeScenario(
      dir.path,
      "notes",
      `schema_version: 2\nname: notes\ndependencies:\n  notes:\n    type: mcp_stdio\n    command: ${yamlList([process.execPath, join(PROGRAMS, "mcp-scripted-server.mjs")])}\nworkload:\n  command: ${yamlList([process.execPath, join(PROGRAMS, "mcp-plain-agent.mjs"), "list_notes", "read_note"])}\nsuccess:\n  exit_code: 0\ntimeout_seconds: 20\n`,
    );
    const menu = await menuFile(dir.path, "menu", "- {type: mcp_tool_error}\n");
    const done = await exploreScenario(scenario, {
      menu,
      jobs: 2,
      baselineRuns: 1,
      outputDir: join(dir.path, "explore"),
    });
    const labels = done.document.points.map((point) => point.label);
    expect(labels).toContain("notes initialize #1");
    expect(labels).toContain("notes tools/call read_note #1");
    const tried = done.document.experiments.map((experiment) => experiment.label.split(" | ")[0]);
    expect(tried).toEqual(["notes tools/call list_notes #1", "notes tools/call read_note #1"]);
    expect(tried.every((label) => label?.startsWith("notes tools/call "))).toBe(true);
    const [fault] = done.document.experiments[0]?.faults ?? [];
    expect(fault?.fault).toMatchObject({
      dependency: "notes",
      type: "mcp_tool_error",
      target: { method: "tools/call" },
    });
    expect(done.document.experiments.every((experiment) => experiment.result === "RECOVERED")).toBe(true);
  }, 90_000);

  it("--trials runs each experiment N times instead of confirming: a flaky cell below the minimum pass rate is a failure with a replay", async () => {
    const scenario = await agentScenario(dir.path, "flaky", {
      paths: ["/a"],
      env: { FLIP_FILE: join(dir.path, "runs.count") },
    });
    const menu = await menuFile(dir.path, "menu", "- {type: http_latency, latency_ms: 1}\n");
    const out = join(dir.path, "explore");
    const result = await runInProcess(
      [
        "explore",
        scenario,
        "--menu",
        menu,
        "--baseline-runs",
        "1",
        "--jobs",
        "1",
        "--trials",
        "3",
        "--output-dir",
        out,
      ],
      dir.path,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    const { folder, document } = await onlyExplore(out);
    expect(document.schema_version).toBe(2);
    expect(document.settings).toMatchObject({ trials: 3, min_pass_rate: 1 });
    expect(document.baseline).toHaveLength(1);
    const [experiment] = document.experiments;
    expect(experiment).toMatchObject({
      result: "FAILED",
      reason_code: "WORKLOAD_EXIT_CODE_MISMATCH",
      exit_code: 1,
      flaky: false,
      confirmation: null,
      trials: { trials: 3, passed: 1, class: "flaky", min_pass_rate: 1 },
    });
    expect(experiment?.replay).toMatch(/^replays\/01-/);
    const trialsFolder = join(folder, experiment?.run_folder as string);
    expect((await readdir(trialsFolder)).length).toBe(4);
    expect(JSON.parse(await readFile(join(trialsFolder, "trials.json"), "utf8"))).toMatchObject({
      trials: 3,
      passed: 1,
    });
    expect(result.stdout).toMatch(/api GET \/a #1 +0\.33 flaky FAILED WORKLOAD_EXIT_CODE_MISMATCH\n/);
    expect(result.stdout).not.toContain("Confirming");
    const replay = await readFile(join(folder, experiment?.replay as string), "utf8");
    expect(replay).toContain("in 2 of 3 trials (flaky, pass rate 0.33, minimum 1)");
    const html = await readFile(join(folder, "index.html"), "utf8");
    const marks = [...html.matchAll(/<a class="trial-mark (\w+)"[^>]* href="([^"]+)"/g)];
    expect(marks.map((mark) => mark[2])).toEqual(
      experiment?.trials?.runs.map((run) => `${run.run_folder}/report.html`),
    );
  }, 120_000);
});
