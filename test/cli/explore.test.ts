import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentScenario, menuFile } from "../explore/scenarios.js";
import { testFolder } from "../helpers/cli.js";
import { runInProcess } from "../helpers/in-process.js";
import { writeScenario } from "../helpers/scenario-files.js";

const dir = testFolder("each");

/** Runs `explore` in-process; nothing may start: the output folder stays absent. */
async function refused(args: readonly string[]) {
  const out = join(dir.path, "explore");
  const result = await runInProcess(["explore", ...args, "--output-dir", out], dir.path);
  expect(await readdir(dir.path)).not.toContain("explore");
  return result;
}

describe("agentchaos explore refuses bad input before anything starts", () => {
  it.each([
    [["--budget", "0"], "--budget needs a positive integer, got '0'"],
    [["--depth", "3"], "--depth needs 1 or 2, got '3'"],
    [["--jobs", "0"], "--jobs needs a positive integer, got '0'"],
    [["--baseline-runs", "21"], "--baseline-runs needs an integer from 1 to 20, got '21'"],
    [["--seed", "-4"], "--seed needs an integer from 0 to 9007199254740991, got '-4'"],
    [["--reporter", "pdf"], "unknown reporter 'pdf' (expected junit, ctrf, html or json)"],
    [["--shard", "1/2"], "unknown option '--shard'"],
  ])("%j: exit 2 and one line", async (extra, message) => {
    const scenario = await agentScenario(dir.path, "agent");
    const result = await refused([scenario, ...extra]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Error: ${message}\nRun 'agentchaos --help' for usage.\n`);
    expect(result.stdout).toBe("");
  });

  it("an invalid menu: exit 2, every problem with its line, column and excerpt", async () => {
    const scenario = await agentScenario(dir.path, "agent");
    const menu = await menuFile(
      dir.path,
      "menu",
      "- type: http_error\n  status_code: 99\n- type: http_latency\n",
    );
    const result = await refused([scenario, "--menu", menu]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `Invalid menu: ${menu}: 2 problems\n` +
        "  [0].status_code (line 2, column 16): expected an integer from 400 to 599, got the integer 99\n" +
        "        status_code: 99\n" +
        "                     ^\n" +
        "  [1].latency_ms (line 3, column 3): missing; expected a positive integer\n" +
        "      - type: http_latency\n" +
        "        ^\n",
    );
  });

  it("a menu file that does not exist: exit 2", async () => {
    const scenario = await agentScenario(dir.path, "agent");
    const result = await refused([scenario, "--menu", "nowhere.yaml"]);
    expect(result).toMatchObject({ code: 2, stderr: "Invalid menu: file not found: nowhere.yaml\n" });
  });

  it("a file named extended is given as ./extended: it is read as a menu file, not the extended menu", async () => {
    const scenario = await agentScenario(dir.path, "agent");
    const result = await refused([scenario, "--menu", "./extended"]);
    expect(result).toMatchObject({ code: 2, stderr: "Invalid menu: file not found: ./extended\n" });
  });

  it("an invalid scenario: exit 2 with its problems", async () => {
    const scenario = await writeScenario(dir.path, "bad", "schema_version: 2\nname: bad\n");
    const result = await refused([scenario]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Invalid scenario: .*bad\.yaml: \d+ problems\n/);
  });
});
