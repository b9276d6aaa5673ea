import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";
import { tempDir } from "../helpers/temp.js";

// What a run loads before and while it runs (docs/performance.md): the record and replay modules
// and TLS only when the scenario needs them, and no ES module loader (the executable is CommonJS).
const LOADER = join(ROOT, "test", "fixtures", "programs", "loaded-modules.cjs");
const LIVE = join(ROOT, "examples", "scenarios", "v2", "support_baseline.yaml");
const REPLAYED = join(ROOT, "examples", "scenarios", "v2", "replay", "support_replayed.yaml");

const children = new Set<ChildProcess>();
const folders: (() => Promise<void>)[] = [];
afterEach(() => {
  for (const child of children) child.kill("SIGKILL");
  children.clear();
});
// The folders stay until the file ends: the tests share one live run and its run folder.
afterAll(async () => {
  await Promise.all(folders.splice(0).map((remove) => remove()));
});

/** Runs the built CLI on `scenario` with the loader in place; the modules it loaded. */
async function loadedBy(
  scenario: string,
): Promise<{ files: string[]; builtins: string[]; code: number | null; runs: string }> {
  const folder = await tempDir("agentchaos-modules-");
  folders.push(folder.remove);
  const runs = join(folder.path, "runs");
  return { ...(await loadedByCommand(["run", scenario, "--output-dir", runs])), runs };
}

/** Runs the built CLI with `args` and the loader in place; the modules it loaded. */
async function loadedByCommand(
  args: readonly string[],
): Promise<{ files: string[]; builtins: string[]; code: number | null }> {
  const folder = await tempDir("agentchaos-modules-");
  folders.push(folder.remove);
  const listFile = join(folder.path, "loaded.json");
  const child = spawn(process.execPath, ["--require", LOADER, BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", AGENTCHAOS_TEST_LOADED_MODULES: listFile },
    stdio: "ignore",
  });
  children.add(child);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  children.delete(child);
  const loaded = JSON.parse(await readFile(listFile, "utf8")) as { files: string[]; builtins: string[] };
  return { ...loaded, code };
}

/** The loaded files that hold any of `sources` (by their source regions). */
async function filesHolding(files: readonly string[], sources: RegExp): Promise<string[]> {
  const texts = await Promise.all(files.map(async (file) => [file, await readFile(file, "utf8")] as const));
  return texts.filter(([, text]) => sources.test(text)).map(([file]) => file);
}

/** The loaded files that hold the run's record and replay steps or the cassette reader. */
function replayModules(files: readonly string[]): Promise<string[]> {
  return filesHolding(files, /src\/runtime\/replay-steps\.ts|src\/replay\/scenario-cassettes\.ts/);
}

describe("modules a run loads", () => {
  let live: Awaited<ReturnType<typeof loadedBy>>;
  beforeAll(async () => {
    live = await loadedBy(LIVE);
  }, 60_000);

  it("a live run of http dependencies loads neither the record and replay modules nor TLS", async () => {
    expect(live.code).toBe(0);
    expect(live.files.some((file) => file.endsWith("agentchaos.js"))).toBe(true);
    expect(await replayModules(live.files)).toEqual([]);
    expect(live.builtins).not.toContain("tls");
    expect(live.builtins).not.toContain("https");
  }, 60_000);

  it("a run loads the executable's files as CommonJS, no ES module", async () => {
    expect(live.code).toBe(0);
    expect(live.files.filter((file) => file.startsWith(join(ROOT, "dist", "bin"))).length).toBeGreaterThan(
      10,
    );
    expect(live.builtins).toContain("child_process");
    // `node:module` brings the loader's code; loading any ES module would bring these too.
    expect(live.builtins).not.toContain("internal/modules/esm/translators");
    expect(live.builtins).not.toContain("internal/modules/esm/module_job");
    expect(live.builtins).not.toContain("internal/modules/esm/load");
  }, 60_000);

  it("inspect of a passed run loads neither the failure excerpts nor the YAML parser", async () => {
    expect(live.code).toBe(0);
    const [run] = await readdir(live.runs);
    const inspect = await loadedByCommand(["inspect", join(live.runs, run as string)]);
    expect(inspect.code).toBe(0);
    expect(await filesHolding(inspect.files, /src\/report\/failure-excerpts\.ts/)).toEqual([]);
    expect(await filesHolding(inspect.files, /src\/scenario\/secret-masks\.ts/)).toEqual([]);
    expect(await filesHolding(inspect.files, /node_modules\/yaml\//)).toEqual([]);
    expect(await filesHolding(live.files, /src\/scenario\/secret-masks\.ts/)).not.toEqual([]);
  }, 60_000);

  it("a run with replay loads the record and replay modules", async () => {
    const replayed = await loadedBy(REPLAYED);
    expect(replayed.code).toBe(0);
    expect((await replayModules(replayed.files)).length).toBeGreaterThan(0);
  }, 60_000);
});
