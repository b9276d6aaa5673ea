import { access, mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Captured, runInProcess } from "../helpers/in-process.js";
import { childrenOf } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp.js";

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), "../fixtures/scenarios");

function validate(path: string, cwd = FIXTURES): Promise<Captured> {
  return runInProcess(["validate", path], cwd);
}

describe("agentchaos validate", () => {
  it("prints `Valid scenario: <name>` and exits 0 for a valid scenario, resolving the path against the cwd", async () => {
    expect(await validate("full.yaml")).toEqual({
      code: 0,
      stdout: "Valid scenario: api-503-recovery\n",
      stderr: "",
    });
    expect(await validate(join(FIXTURES, "probability.yaml"), "/")).toEqual({
      code: 0,
      stdout: "Valid scenario: probability-window\n",
      stderr: "",
    });
  });

  it("lists every problem after `Invalid scenario:` on stderr and exits 2", async () => {
    const result = await validate("many-problems.yaml");
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    const lines = result.stderr.split("\n");
    expect(lines[0]).toBe("Invalid scenario: many-problems.yaml: 9 problems");
    expect(result.stderr).toContain("fault.trigger.occurrences[1] (line 14, column 22)");
    expect(result.stderr).toContain("success.exit_code (line 15, column 10)");
    expect(result.stderr.endsWith("\n")).toBe(true);
  });

  it("reports a missing file as `Invalid scenario: file not found: <path>` with exit 2", async () => {
    expect(await validate("no-such-scenario.yaml")).toEqual({
      code: 2,
      stdout: "",
      stderr: "Invalid scenario: file not found: no-such-scenario.yaml\n",
    });
  });

  it.each(["empty.yaml", "two-documents.yaml", "top-level-list.yaml", "."])(
    "gives %s a one-line reason and exit 2",
    async (file) => {
      const result = await validate(file);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(
        new RegExp(`^Invalid scenario: ${file.replace(".", "\\.")}: [^\\n]+\\n$`),
      );
    },
  );

  describe("with files in a temp folder", () => {
    let folder: { path: string; remove: () => Promise<void> };
    beforeEach(async () => {
      folder = await tempDir();
    });
    afterEach(async () => {
      await folder.remove();
    });

    it("gives a YAML syntax error one line with its line and column, and exit 2", async () => {
      // Kept inline: the lint tool parses YAML files and would reject a broken fixture.
      await writeFile(
        join(folder.path, "broken.yaml"),
        "schema_version: 1\nworkload:\n  command: [node, agent.mjs\n",
      );
      const result = await validate("broken.yaml", folder.path);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toMatch(
        /^Invalid scenario: broken\.yaml: YAML syntax error at line 4, column 1: [^\n]+\n$/,
      );
    });

    it("gives a file that is not UTF-8 a one-line reason and exit 2", async () => {
      await writeFile(join(folder.path, "latin1.yaml"), Buffer.from("name: caf\xe9\n", "latin1"));
      const result = await validate("latin1.yaml", folder.path);
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toMatch(/^Invalid scenario: latin1\.yaml: [^\n]*UTF-8[^\n]*\n$/);
    });

    it("starts nothing: neither the dependency nor the workload command runs", async () => {
      const scenario = [
        "schema_version: 1",
        "name: side-effects",
        "dependency:",
        "  type: http",
        "  base_url: http://127.0.0.1:9",
        "  start:",
        "    command: [touch, dependency-ran]",
        "    readiness: {path: /}",
        "workload:",
        "  command: [touch, workload-ran]",
        "success: {exit_code: 0}",
        "",
      ].join("\n");
      await writeFile(join(folder.path, "scenario.yaml"), scenario);
      expect((await validate("scenario.yaml", folder.path)).code).toBe(0);
      // A command it had started would still be running now, or would have left its marker.
      if (process.platform === "linux") expect(childrenOf(process.pid)).toEqual([]);
      for (const marker of ["dependency-ran", "workload-ran"]) {
        await expect(access(join(folder.path, marker))).rejects.toThrow();
      }
    });

    it("never throws or prints a stack trace, whatever the input, and always exits 2", async () => {
      const inputs: Record<string, string | Buffer> = {
        "binary.yaml": Buffer.from([0x00, 0xff, 0x10, 0x80, 0xc0]),
        "nul.yaml": "name: \0\n",
        "scalar.yaml": "hello",
        "deep.yaml": `${"[".repeat(500)}${"]".repeat(500)}\n`,
        "anchors.yaml": "a: &a {b: *a}\n",
        "tags.yaml": "schema_version: !!binary aGVsbG8=\nname: !custom x\n",
        "proto.yaml": "__proto__: {polluted: true}\nconstructor: 1\n",
        "keys.yaml": "? [complex, key]\n: value\n1: one\nnull: ~\n",
        "huge-numbers.yaml": "schema_version: 1e999999\nname: 123456789012345678901234567890\n",
        "fault-only.yaml": "fault: {type: http_error, trigger: {probability: 1e-999, seed: -0}}\n",
        "weird-env.yaml": "workload: {command: [a], env: {A: [1], B: {c: d}}}\n",
      };
      await mkdir(join(folder.path, "folder.yaml"));
      for (const [name, content] of Object.entries(inputs)) await writeFile(join(folder.path, name), content);
      for (const name of [...Object.keys(inputs), "folder.yaml"]) {
        const result = await validate(name, folder.path);
        expect(result.code, name).toBe(2);
        expect(result.stdout, name).toBe("");
        expect(result.stderr, name).toMatch(/^Invalid scenario: /);
        expect(result.stderr, name).not.toMatch(/^\s+at /m);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
});

describe("a folder as the scenario argument", () => {
  it("means its scenario.yaml for validate and run; a folder without one says what to do", async () => {
    const temp = await tempDir();
    const folder = temp.path;
    try {
      const empty = await runInProcess(["validate", "."], folder);
      expect(empty).toEqual({
        code: 2,
        stdout: "",
        stderr:
          "Invalid scenario: .: is a folder with no scenario.yaml; name a scenario file, or run every scenario in it with: agentchaos suite <folder>\n",
      });
      expect((await runInProcess(["run", "."], folder)).stderr).toBe(empty.stderr);
      await writeFile(join(folder, "scenario.yaml"), "schema_version: 2\nname: [\n");
      const broken = await runInProcess(["validate", "."], folder);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(/^Invalid scenario: scenario\.yaml: /);
    } finally {
      await temp.remove();
    }
  });
});
