import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBuiltCli, testFolder } from "../helpers/cli.js";
import { writeScenario } from "../helpers/scenario-files.js";

const dir = testFolder("each");

function scenario(dependency: string, workload: string): string {
  return `schema_version: 1
name: parity
dependency:
${dependency}
workload:
${workload}
success:
  exit_code: 0
`;
}

const plainDependency = "  type: http\n  base_url: http://127.0.0.1:9";

/** Scenarios the old validate accepted and run then refused (spawn errors, URIError, a broken PATH). */
const refused: [string, string][] = [
  [
    "a NUL byte in an env value",
    scenario(plainDependency, '  command: [node, -e, "0"]\n  env: {A: "x\\0y"}'),
  ],
  ["a NUL byte in a command item", scenario(plainDependency, '  command: [node, "-e\\0"]')],
  ["a NUL byte in cwd", scenario(plainDependency, '  command: [node]\n  cwd: "a\\0b"')],
  [
    "a malformed %-escape in base_url",
    scenario("  type: http\n  base_url: http://user:p%zz@127.0.0.1:9", "  command: [node]"),
  ],
  ["proxy_url_env PATH", scenario(plainDependency, "  command: [node]\n  proxy_url_env: PATH")],
];

describe("validate refuses exactly what run refuses for a reason in the file", () => {
  it.each(refused)("%s: both exit 2 and run creates nothing", async (_, text) => {
    const file = await writeScenario(dir.path, "parity", text);
    const out = join(dir.path, "runs");
    const validated = await runBuiltCli(["validate", file], { timeoutMs: 20_000 });
    const ran = await runBuiltCli(["run", file, "--output-dir", out], { timeoutMs: 20_000 });
    expect([validated.code, ran.code]).toEqual([2, 2]);
    expect(validated.stderr).toMatch(/^Invalid scenario: /);
    expect(ran.stderr).toBe(validated.stderr);
    expect(existsSync(out)).toBe(false);
  });
});
