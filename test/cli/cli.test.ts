import { describe, expect, it } from "vitest";
import { HELP } from "../../src/cli/index.js";
import { packageVersion } from "../../src/support/version.js";
import { runInProcess } from "../helpers/in-process.js";

describe("runCli", () => {
  it("prints the version as 'agentchaos <version>' for both spellings", async () => {
    for (const argv of [["--version"], ["version"]]) {
      expect(await runInProcess(argv)).toEqual({ code: 0, stdout: "agentchaos 0.1.0\n", stderr: "" });
    }
    expect(packageVersion()).toBe("0.1.0");
  });

  it("prints help for --help and when no command is given", async () => {
    for (const argv of [[], ["--help"], ["help"], ["run", "--help"]]) {
      expect(await runInProcess(argv)).toEqual({ code: 0, stdout: HELP, stderr: "" });
    }
  });

  it("treats an unknown command, a missing argument or an unknown option as a usage error (exit 2)", async () => {
    const cases: string[][] = [
      ["frobnicate"],
      ["run"],
      ["validate"],
      ["inspect"],
      ["validate", "a.yaml", "b.yaml"],
      ["validate", "--output-dir", "x", "a.yaml"],
      ["run", "a.yaml", "--output-dir"],
      ["run", "a.yaml", "--fast"],
      ["version", "extra"],
    ];
    for (const argv of cases) {
      const result = await runInProcess(argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^Error: .+\nRun 'agentchaos --help' for usage\.\n$/);
    }
  });

  it("reports a missing scenario for run as an invalid scenario with exit 2, starting nothing", async () => {
    const result = await runInProcess([
      "run",
      "does-not-exist.yaml",
      "--output-dir",
      "/nonexistent/never-created",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Invalid scenario: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
