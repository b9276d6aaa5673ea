import { execFile } from "node:child_process";
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT, testFolder } from "../helpers/cli.js";

// The executable's files are compiled with V8's code cache that the build writes
// (docs/performance.md#code-cache): taken when it fits, and when it is damaged or missing the
// command does exactly what it does with it.
const PRELOAD = join(ROOT, "test", "fixtures", "programs", "code-cache-use.cjs");
const SCENARIO = join(ROOT, "examples", "scenarios", "v2", "support_baseline.yaml");
const folder = testFolder("each");

interface CompiledScript {
  readonly filename: string;
  readonly cached: boolean;
  readonly rejected: boolean;
}

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the executable `bin` with `args` (killed after a minute); its exit code and output. */
function runBin(bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 60_000, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Runs `bin` with `args` and the preload in place; its result and the scripts it compiled. */
async function compiledBy(bin: string, args: readonly string[]) {
  const list = join(folder.path, `scripts-${Math.random().toString(16).slice(2)}.json`);
  const result = await runBin(bin, args, {
    NODE_OPTIONS: `--require ${PRELOAD}`,
    AGENTCHAOS_TEST_CODE_CACHE: list,
  });
  const scripts = JSON.parse(await readFile(list, "utf8")) as CompiledScript[];
  return { result, scripts };
}

/** A copy of the built executable in the test folder (with the manifest it reads its version from). */
async function copiedBin(): Promise<{ bin: string; cache: string }> {
  await cp(join(ROOT, "dist", "bin"), join(folder.path, "dist", "bin"), { recursive: true });
  await cp(join(ROOT, "package.json"), join(folder.path, "package.json"));
  return {
    bin: join(folder.path, "dist", "bin", "agentchaos.js"),
    cache: join(folder.path, "dist", "bin", "code-cache"),
  };
}

describe("the executable's code cache", () => {
  it("compiles every file a command loads with cached code that V8 takes", async () => {
    const { result, scripts } = await compiledBy(BIN, ["validate", SCENARIO]);
    expect(result.code).toBe(0);
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) {
      expect(script.filename.startsWith(join(ROOT, "dist", "bin"))).toBe(true);
      expect(script).toMatchObject({ cached: true, rejected: false });
    }
  }, 60_000);

  it("a damaged or missing cache changes nothing a command prints or returns", async () => {
    const { bin, cache } = await copiedBin();
    const files = await readdir(cache);
    await Promise.all(
      files.map((file, index) =>
        index % 4 === 3
          ? rm(join(cache, file), { force: true })
          : writeFile(join(cache, file), Buffer.alloc(4096, 7)),
      ),
    );
    const broken = join(folder.path, "broken.yaml");
    await writeFile(broken, "schema_version: 2\nname: broken\ndependencies:\n  api: 3\n");
    for (const args of [["validate", SCENARIO], ["validate", broken], ["--help"]]) {
      const intact = await runBin(BIN, args);
      const damaged = await compiledBy(bin, args);
      expect(damaged.result.code).toBe(intact.code);
      expect(damaged.result.stdout).toBe(intact.stdout);
      expect(damaged.result.stderr).toBe(intact.stderr);
      expect(damaged.scripts.some((script) => script.cached && script.rejected)).toBe(true);
    }
    expect(files.length).toBeGreaterThan(5);
  }, 60_000);
});
