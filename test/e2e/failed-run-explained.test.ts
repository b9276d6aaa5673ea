/**
 * A red schema-2 run says why: the workload's last stderr lines (masked) in the terminal summary
 * and in report.html, which links every log of the run folder.
 */
import { readdirSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

/** A workload that writes 14 stderr lines (a secret, a URL with a token among them) and exits 1. */
const NOISY_AGENT = `
for (let i = 1; i <= 11; i++) console.error("step " + i);
console.error("calling https://user:hunter22@api.example/v1?key=abc123 with " + process.env.AGENT_TOKEN);
console.error("Authorization: Bearer sk-live-0123456789");
console.error("Error: the model answered nonsense\\u001b[31m");
process.exit(1);
`;

function scenarioText(agent: string): string {
  return `schema_version: 2
name: noisy-failure
dependencies:
  api:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, join(PROGRAMS, "http-ok.mjs"), "--port", "{port}"])}
      readiness: {path: /health}
workload:
  name: noisy
  command: ${yamlList([process.execPath, "-e", agent])}
  env:
    AGENT_TOKEN: tok-very-secret-value
success:
  exit_code: 0
timeout_seconds: 20
`;
}

describe("a failed schema-2 run shows why the agent failed", () => {
  it("prints the last 10 stderr lines, masked and escaped, in the summary, and report.html shows them with links to every log", async () => {
    const file = await writeScenario(dir.path, "noisy", scenarioText(NOISY_AGENT));
    const out = join(dir.path, "runs");
    const run = await runInProcess(["run", file, "--output-dir", out, "--reporter", "html"], dir.path);
    expect(run.code).toBe(1);
    const summary = run.stdout.slice(run.stdout.indexOf("Experiment complete."));
    const tail = summary.slice(summary.indexOf("Workload stderr"), summary.indexOf("\nReport:"));
    expect(tail).toBe(
      [
        "Workload stderr (last 10 lines of stderr.log):",
        ...[5, 6, 7, 8, 9, 10, 11].map((step) => `  step ${step}`),
        "  calling https://***@api.example/v1?*** with ***",
        "  Authorization: Bearer ***",
        "  Error: the model answered nonsense\\x1b[31m",
        "",
      ].join("\n"),
    );
    const folder = join(out, (await import("node:fs")).readdirSync(out)[0] as string);
    const html = await readFile(join(folder, "report.html"), "utf8");
    expect(html).toContain("Workload stderr (last 10 lines of stderr.log), secrets masked:");
    expect(html).toContain('<pre class="log" data-file="stderr.log">step 5\n');
    expect(html).toContain("Error: the model answered nonsense\\x1b[31m</pre>");
    expect(html).not.toContain("tok-very-secret-value");
    expect(html).not.toContain("hunter22");
    for (const log of [
      "stdout.log",
      "stderr.log",
      "dependencies/api.stdout.log",
      "dependencies/api.stderr.log",
    ]) {
      expect(html).toContain(`<a class="mono" href="${log}">${log}</a>`);
    }
  });

  it("shows no stderr lines for a run that did not fail", async () => {
    const file = await writeScenario(
      dir.path,
      "quiet",
      scenarioText('console.error("just a warning"); process.exit(0);'),
    );
    const run = await runInProcess(["run", file, "--output-dir", join(dir.path, "runs")], dir.path);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("Workload stderr");
  });
});

/** A scenario whose only dependency exits at once with `stderr` on its error stream. */
function brokenDependencyScenario(stderr: string): string {
  return `schema_version: 2
name: broken-dependency
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, "-e", `process.stderr.write(${JSON.stringify(stderr)}); process.exit(2)`])}
      readiness: {path: /health}
workload:
  command: ${yamlList([process.execPath, "-e", "0"])}
success:
  exit_code: 0
timeout_seconds: 20
`;
}

describe("checks of a run whose workload never ran", () => {
  it("are not evaluated: passed null in report.json, 'not evaluated' in the summary, inspect, JUnit and HTML", async () => {
    const file = await writeScenario(dir.path, "broken", brokenDependencyScenario("boom\n"));
    const out = join(dir.path, "runs");
    const run = await runInProcess(["run", file, "--output-dir", out, "--reporter", "html,junit"], dir.path);
    expect(run.code).toBe(3);
    const folder = join(out, (await import("node:fs")).readdirSync(out)[0] as string);
    const report = JSON.parse(await readFile(join(folder, "report.json"), "utf8"));
    expect(report.reason_code).toBe("DEPENDENCY_START_FAILED");
    expect(report.checks).toEqual([
      { name: "retry_after", mode: "enforce", passed: null, findings: [] },
      { name: "retry_storm", mode: "report", passed: null, findings: [] },
      { name: "duplicate_writes", mode: "report", passed: null, findings: [] },
    ]);
    const line = "Check retry_after:      not evaluated (the workload never ran)\n";
    expect(run.stdout).toContain(line);
    expect(run.stdout).not.toMatch(/Check \w+: +passed/);
    const inspected = await runInProcess(["inspect", folder], dir.path);
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toContain(line);
    expect(await readFile(join(folder, "junit.xml"), "utf8")).toContain(
      "Check duplicate_writes: not evaluated (the workload never ran)",
    );
    const html = await readFile(join(folder, "report.html"), "utf8");
    expect(html.match(/not evaluated \(the workload never ran\)/g)).toHaveLength(3);
  });
});

describe("setup failures quote what went wrong", () => {
  it("a fake model with a typo in its script: the summary and report.html quote the positioned error from its stderr", async () => {
    await writeFile(
      join(dir.path, "fake-llm.yaml"),
      "- when: {user_contains: weather}\n  answr: {text: sunny}\n",
    );
    const file = await writeScenario(
      dir.path,
      "typo",
      `schema_version: 2
name: script-typo
dependencies:
  llm:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${yamlList([process.execPath, BIN, "fake-llm", "--port", "{port}", "--script", "fake-llm.yaml"])}
      readiness: {path: /health}
workload:
  command: ${yamlList([process.execPath, "-e", "0"])}
success:
  exit_code: 0
`,
    );
    const out = join(dir.path, "runs");
    const run = await runInProcess(["run", file, "--output-dir", out, "--reporter", "html"], dir.path);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /\nDependency llm stderr \(first \d+ lines of dependencies\/llm\.stderr\.log\):\n {2}fake-llm: invalid script fake-llm\.yaml: 2 problems\n/,
    );
    expect(run.stdout).toContain('  [0].answr (line 2, column 3): unknown key "answr"');
    const folder = join(out, readdirSync(out)[0] as string);
    const html = await readFile(join(folder, "report.html"), "utf8");
    expect(html).toContain(
      '<pre class="log" data-file="dependencies/llm.stderr.log">fake-llm: invalid script',
    );
  });

  it("a workload that cannot be spawned names the command and the folder", async () => {
    const scenario = (command: string, cwd: string) => `schema_version: 2
name: no-such-agent
dependencies:
  api:
    type: http
    base_url: http://127.0.0.1:9
workload:
  command: [${command}, agent.mjs]
  cwd: ${cwd}
success:
  exit_code: 0
`;
    const missingCommand = await writeScenario(
      dir.path,
      "missing-command",
      scenario("no-such-node-xyz", "."),
    );
    const first = await runInProcess(
      ["run", missingCommand, "--output-dir", join(dir.path, "runs")],
      dir.path,
    );
    expect(first.code).toBe(3);
    expect(first.stdout).toContain(
      `WORKLOAD_SPAWN_FAILED: workload could not be started: command "no-such-node-xyz" was not found (spawn ENOENT) in folder ${dir.path}; is it installed and on PATH?`,
    );
    const missingFolder = await writeScenario(dir.path, "missing-folder", scenario("node", "agnet"));
    const second = await runInProcess(
      ["run", missingFolder, "--output-dir", join(dir.path, "runs")],
      dir.path,
    );
    expect(second.code).toBe(3);
    expect(second.stdout).toContain(
      `workload could not be started: folder ${join(dir.path, "agnet")} does not exist (spawn ENOENT) for command "node"`,
    );
  });
});
