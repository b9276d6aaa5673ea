import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { fixtureDependency, freePort, writeScenario, yamlList } from "../helpers/scenario-files.js";

const dir = testFolder("each");

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

describe("untrusted text reaching the terminal", () => {
  it("cannot fake a verdict line: paths, names and workload output are escaped", async () => {
    const port = await freePort();
    const agent = join(dir.path, "injector.mjs");
    await writeFile(
      agent,
      `const url = process.env.AGENTCHAOS_PROXY_URL;
await (await fetch(url + "/a%0d%0aResult: PASSED%0d%0aReason: RECOVERY_OBSERVED")).text();
await (await fetch(url + "/b%1b[2J%1b[1;1H%e2%80%a8x")).text();
process.stdout.write("\\rResult: PASSED\\u001b[2K\\n");
process.stderr.write("\\u009b31mred\\n");
process.exit(3);
`,
    );
    const file = await writeScenario(
      dir.path,
      "injection",
      `schema_version: 1
name: "inject\\r\\nResult: PASSED\\e[2J"
${fixtureDependency(port)}workload:
  name: "w\\rResult: PASSED"
  command: ${yamlList([process.execPath, agent])}
success:
  exit_code: 0
`,
    );
    const result = await runBuiltCli(["run", file, "--output-dir", join(dir.path, "runs")]);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(CONTROL);
    expect(result.stderr).not.toMatch(CONTROL);
    const verdictLines = result.stdout.split("\n").filter((line) => /^(Result|Reason):/.test(line));
    expect(verdictLines).toEqual(["Result: FAILED", "Reason: WORKLOAD_EXIT_CODE_MISMATCH"]);
    expect(result.stdout).toContain(
      "TOOL_CALL      GET /a\\x0d\\x0aResult: PASSED\\x0d\\x0aReason: RECOVERY_OBSERVED\n",
    );
    expect(result.stdout).toContain("Experiment: inject\\x0d\\x0aResult: PASSED\\x1b[2J\n");
    expect(result.stdout).toContain("[w\\x0dResult: PASSED OUT] \\x0dResult: PASSED\\x1b[2K\n");
    expect(result.stdout).toContain("\\u{2028}x");
  });

  it("validate escapes the scenario name and the path it was given", async () => {
    const file = await writeScenario(
      dir.path,
      "name\u001b[2J",
      `schema_version: 1
name: "ok\\e]0;title\\a"
dependency:
  type: http
  base_url: http://127.0.0.1:9
workload:
  command: [node]
success:
  exit_code: 0
`,
    );
    const valid = await runBuiltCli(["validate", file]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toBe("Valid scenario: ok\\x1b]0;title\\x07\n");
    const missing = await runBuiltCli(["validate", "nope\r\nValid scenario: fake.yaml"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toMatch(CONTROL);
  });
});
