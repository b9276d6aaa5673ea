import { describe, expect, it } from "vitest";
import { HELP, runCli } from "../../src/cli/index.js";
import type { CliIo } from "../../src/cli/io.js";
import { packageVersion } from "../../src/cli/version.js";

function capture(): { io: CliIo; out: () => string; err: () => string } {
  let out = "";
  let err = "";
  return {
    io: {
      stdout: { write: (text: string) => (out += text) },
      stderr: { write: (text: string) => (err += text) },
      cwd: process.cwd(),
      env: {},
    },
    out: () => out,
    err: () => err,
  };
}

describe("runCli", () => {
  it("prints the version as 'agentchaos <version>' for both spellings", async () => {
    for (const argv of [["--version"], ["version"]]) {
      const c = capture();
      expect(await runCli(argv, c.io)).toBe(0);
      expect(c.out()).toBe("agentchaos 0.1.0\n");
    }
    expect(packageVersion()).toBe("0.1.0");
  });

  it("prints help for --help and when no command is given", async () => {
    for (const argv of [[], ["--help"], ["help"], ["run", "--help"]]) {
      const c = capture();
      expect(await runCli(argv, c.io)).toBe(0);
      expect(c.out()).toBe(HELP);
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
      const c = capture();
      expect(await runCli(argv, c.io), argv.join(" ")).toBe(2);
      expect(c.out()).toBe("");
      expect(c.err()).toMatch(/^Error: .+\nRun 'agentchaos --help' for usage\.\n$/);
    }
  });

  it("reports a missing scenario for run as an invalid scenario with exit 2, starting nothing", async () => {
    const c = capture();
    expect(
      await runCli(["run", "does-not-exist.yaml", "--output-dir", "/nonexistent/never-created"], c.io),
    ).toBe(2);
    expect(c.err()).toMatch(/^Invalid scenario: /);
    expect(c.err()).not.toMatch(/\n\s+at /);
  });
});
