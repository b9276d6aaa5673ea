import { describe, expect, it } from "vitest";
import { parseFakeLlmArgs } from "../../src/fake-llm/options.js";
import { runInProcess } from "../helpers/in-process.js";

describe("agentchaos fake-llm arguments", () => {
  it("default to a free port on 127.0.0.1, no script and no stream delay", () => {
    expect(parseFakeLlmArgs([])).toEqual({
      port: 0,
      host: "127.0.0.1",
      script: null,
      tokenDelayMs: 0,
      help: false,
    });
  });

  it("accept each option as two arguments or as --name=value", () => {
    const expected = { port: 19201, host: "::1", script: "rules.yaml", tokenDelayMs: 25, help: false };
    expect(
      parseFakeLlmArgs([
        "--port",
        "19201",
        "--host",
        "::1",
        "--script",
        "rules.yaml",
        "--token-delay-ms",
        "25",
      ]),
    ).toEqual(expected);
    expect(
      parseFakeLlmArgs(["--port=19201", "--host=::1", "--script=rules.yaml", "--token-delay-ms=25"]),
    ).toEqual(expected);
  });

  it.each([
    [["--port", "65536"], "--port must be an integer from 0 to 65535"],
    [["--port", "-1"], "--port must be an integer from 0 to 65535"],
    [["--port", "80.5"], "--port must be an integer from 0 to 65535"],
    [["--port"], "--port needs a value"],
    [["--script="], "--script needs a value"],
    [["--token-delay-ms", "60001"], "--token-delay-ms must be an integer from 0 to 60000"],
    [["--delay", "5"], "unknown option '--delay'"],
    [["serve"], "unexpected argument 'serve'"],
  ])("reject %j in one line with exit code 2", async (args, reason) => {
    expect(parseFakeLlmArgs(args)).toBe(reason);
    const result = await runInProcess(["fake-llm", ...args]);
    expect(result).toEqual({
      code: 2,
      stdout: "",
      stderr: `fake-llm: ${reason} (usage: agentchaos fake-llm [--port N] [--host 127.0.0.1] [--script FILE] [--token-delay-ms N])\n`,
    });
  });

  it("print the command's help with --help", async () => {
    const result = await runInProcess(["fake-llm", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: agentchaos fake-llm /);
    expect(result.stdout).toContain("POST /v1/responses");
  });
});
