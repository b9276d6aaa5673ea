import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "./cli.js";
import { maskRunText } from "./golden.js";

/**
 * Schema 1 is frozen: the terminal text of its runs is compared with golden files, byte for
 * byte once the parts that differ between runs are masked. `UPDATE_GOLDEN=1` rewrites them from
 * the current build.
 */
const TERMINAL_DIR = join(ROOT, "test", "fixtures", "golden", "terminal");

/** Masks a terminal text: live-line clocks, the duration, the report path, run ids, proxy ports. */
export function maskTerminal(text: string, outputDir: string): string {
  return maskRunText(text.split(outputDir).join("<out>"))
    .replace(/^\d{4}\.\d{3} {2}/gm, "<t>  ")
    .replace(/^(Duration: +)\d+\.\d{2}s$/m, "$1<d>")
    .replace(/127\.0\.0\.1:(\d+)/g, (match, port: string) =>
      port.startsWith("19") ? match : "127.0.0.1:<port>",
    );
}

/**
 * The live part of a run's output interleaves two sources (the proxy's operation lines and the
 * workload's prefixed output) whose relative order depends on which pipe is read first. Each
 * source is compared in order; the header and the closing summary are compared whole.
 */
function terminalParts(text: string): {
  head: string;
  operations: string[];
  workload: string[];
  tail: string;
} {
  const start = text.indexOf("Starting experiment...\n");
  const end = text.indexOf("\nExperiment complete.");
  if (start < 0 || end < 0) return { head: text, operations: [], workload: [], tail: "" };
  const live = text.slice(start + "Starting experiment...\n".length, end).split("\n");
  return {
    head: text.slice(0, start + "Starting experiment...\n".length),
    operations: live.filter((line) => line.startsWith("<t>")),
    workload: live.filter((line) => !line.startsWith("<t>")),
    tail: text.slice(end),
  };
}

export async function expectTerminalGolden(name: string, stdout: string, stderr: string): Promise<void> {
  const file = join(TERMINAL_DIR, `${name}.txt`);
  const text = `${stdout}${stderr === "" ? "" : `--- stderr ---\n${stderr}`}`;
  if (process.env.UPDATE_GOLDEN === "1") {
    await mkdir(TERMINAL_DIR, { recursive: true });
    await writeFile(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`no terminal golden file for ${name}`);
  expect(terminalParts(text)).toEqual(terminalParts(await readFile(file, "utf8")));
}
