import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp.js";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("../../scripts/pack-manifest.mjs", import.meta.url));

const MANIFEST = {
  name: "some-package",
  type: "module",
  scripts: { build: "tsc", prepare: "npm run build", prepack: "strip", postpack: "restore" },
};

/**
 * Runs `strip` or `restore` in `folder` while this process reads its package.json over and over;
 * returns what the reads saw that was not a whole manifest (other test files read the
 * repository's package.json while the packed-package test packs it).
 */
async function whileReading(folder: string, step: string): Promise<string[]> {
  const manifest = join(folder, "package.json");
  const child = run(process.execPath, [SCRIPT, step], { cwd: folder });
  let done = false;
  const settled = (): void => {
    done = true;
  };
  child.then(settled, settled);
  const seen: string[] = [];
  while (!done) {
    let text: string;
    try {
      text = readFileSync(manifest, "utf8");
    } catch (error) {
      seen.push((error as NodeJS.ErrnoException).code ?? "error");
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    try {
      JSON.parse(text);
    } catch {
      seen.push(`unparsable: ${JSON.stringify(text.slice(0, 20))}`);
    }
    // Let the child's exit be seen.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await child;
  return seen;
}

describe("scripts/pack-manifest.mjs", () => {
  it("strips the pack scripts and prepare, and restores the manifest byte for byte", async () => {
    const folder = await tempDir();
    const original = `${JSON.stringify(MANIFEST, null, 2)}\n`;
    await writeFile(join(folder.path, "package.json"), original);
    await run(process.execPath, [SCRIPT, "strip"], { cwd: folder.path });
    const stripped = JSON.parse(await readFile(join(folder.path, "package.json"), "utf8"));
    expect(stripped.scripts).toEqual({ build: "tsc" });
    await run(process.execPath, [SCRIPT, "restore"], { cwd: folder.path });
    expect(await readFile(join(folder.path, "package.json"), "utf8")).toBe(original);
    expect(existsSync(join(folder.path, "package.json.packing"))).toBe(false);
  });

  it("never leaves package.json missing or partly written while it strips and restores", async () => {
    const folder = await tempDir();
    const original = `${JSON.stringify(MANIFEST, null, 2)}\n`;
    await writeFile(join(folder.path, "package.json"), original);
    for (let round = 0; round < 5; round += 1) {
      expect(await whileReading(folder.path, "strip")).toEqual([]);
      expect(await whileReading(folder.path, "restore")).toEqual([]);
    }
    expect(await readFile(join(folder.path, "package.json"), "utf8")).toBe(original);
  });

  it("refuses to strip over a copy saved by an interrupted pack, which keeps the original", async () => {
    const folder = await tempDir();
    await writeFile(join(folder.path, "package.json"), `${JSON.stringify(MANIFEST)}\n`);
    await writeFile(join(folder.path, "package.json.packing"), "the original\n");
    await expect(run(process.execPath, [SCRIPT, "strip"], { cwd: folder.path })).rejects.toMatchObject({
      stderr: expect.stringContaining("package.json.packing exists"),
    });
    expect(await readFile(join(folder.path, "package.json.packing"), "utf8")).toBe("the original\n");
  });
});
