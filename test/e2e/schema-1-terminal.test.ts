import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CliResult, onlyRunDir, testFolder } from "../helpers/cli.js";
import { expectGolden } from "../helpers/golden.js";
import { runCliHere } from "../helpers/in-process-cli.js";
import { expectTerminalGolden, maskTerminal } from "../helpers/terminal-golden.js";

/**
 * Schema 1 is frozen: the runs the example goldens do not cover (a setup error, the workload's
 * variables, a literal `{port}`) print exactly their golden terminal text and write exactly their
 * golden events and report. The bundled schema-1 examples are compared with their terminal
 * goldens in examples.test.ts, over the run that test makes of each. These fixtures run in this
 * process through the CLI code, which prints what the executable prints.
 */
const out = testFolder("all");

interface FixtureRun {
  readonly outputDir: string;
  readonly run: CliResult;
}

const fixtureRuns = new Map<string, Promise<FixtureRun>>();

/** Runs a schema-1 fixture once; every test about that fixture reads the same run. */
function runFixture(name: string): Promise<FixtureRun> {
  let pending = fixtureRuns.get(name);
  if (pending === undefined) {
    const outputDir = join(out.path, name);
    pending = runCliHere(["run", `test/fixtures/schema-1/${name}.yaml`, "--output-dir", outputDir]).then(
      (run) => ({ outputDir, run }),
    );
    fixtureRuns.set(name, pending);
  }
  return pending;
}

describe("schema-1 terminal output", () => {
  it.each([
    ["spawn-failure", 3],
    ["dependency-failure", 3],
    ["env-variables", 0],
  ] as const)("%s writes exactly its golden events, report and terminal text", async (name, exit) => {
    const { outputDir, run } = await runFixture(name);
    expect(run.code).toBe(exit);
    await expectTerminalGolden(
      `schema-1-${name}`,
      maskTerminal(run.stdout, outputDir),
      maskTerminal(run.stderr, outputDir),
    );
    await expectGolden(`schema-1-${name}`, onlyRunDir(outputDir));
  });

  it("passes AGENTCHAOS_PROXY_URL, AGENTCHAOS_RUN_ID, the proxy_url_env name and a literal {port}", async () => {
    const { outputDir, run } = await runFixture("env-variables");
    const runId = onlyRunDir(outputDir).split("/").at(-1) as string;
    const printed = run.stdout
      .split("\n")
      .filter((line) => line.startsWith("[env-printer OUT] "))
      .map((line) => line.slice("[env-printer OUT] ".length));
    const proxy = /^AGENTCHAOS_PROXY_URL=(http:\/\/127\.0\.0\.1:\d+)$/.exec(printed[0] ?? "")?.[1];
    expect(proxy).toBeDefined();
    expect(printed).toEqual([
      `AGENTCHAOS_PROXY_URL=${proxy}`,
      `AGENTCHAOS_RUN_ID=${runId}`,
      expect.stringMatching(/^AGENTCHAOS_SUPERVISION_ID=[0-9a-f-]{36}$/),
      "LITERAL=x{port}y",
      `TOOL_URL=${proxy}`,
      'args=["--at","{port}"]',
      "status=200",
    ]);
  });
});
