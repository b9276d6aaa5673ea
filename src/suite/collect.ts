/**
 * Collecting a suite's scenario files (docs/suites.md): each argument is a file, or a folder searched
 * recursively for `*.yaml` / `*.yml`. Not searched: folders whose name starts with a dot,
 * `node_modules`, and Agent Chaos output (a folder holding `events.jsonl`, `suite.json` or
 * `trials.json`: run folders keep a `scenario.yaml` copy). Sorted by
 * path relative to the current directory, in byte order; a file reached twice counts once.
 */
import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { compareByteOrder } from "../report/suite-document.js";
import { SuiteError } from "../report/suite-errors.js";

export interface ScenarioFile {
  readonly absolutePath: string;
  /** Relative to the current directory, with `/` separators (the entry's `path`). */
  readonly path: string;
}

/** Files that only Agent Chaos output folders hold: run folders, suites, trials. */
const OUTPUT_MARKERS = new Set(["events.jsonl", "suite.json", "trials.json"]);

function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "error";
}

function isScenarioName(name: string): boolean {
  return name.endsWith(".yaml") || name.endsWith(".yml");
}

async function searchFolder(folder: string, display: string, found: string[]): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    throw new SuiteError("SUITE_PATH_UNREADABLE", `cannot read folder ${display} (${errnoCode(error)})`, {
      cause: error,
    });
  }
  if (entries.some((entry) => OUTPUT_MARKERS.has(entry.name))) return;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      await searchFolder(path, join(display, entry.name), found);
    } else if (isScenarioName(entry.name) && (entry.isFile() || entry.isSymbolicLink())) {
      found.push(path);
    }
  }
}

/** The scenario files the arguments name; throws `SuiteError` for a path that does not exist or cannot be read. */
export async function collectScenarioFiles(args: readonly string[], cwd: string): Promise<ScenarioFile[]> {
  const found: string[] = [];
  for (const arg of args) {
    const absolute = resolve(cwd, arg);
    let isFolder: boolean;
    try {
      isFolder = (await stat(absolute)).isDirectory();
    } catch (error) {
      const code = errnoCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") {
        throw new SuiteError("SUITE_PATH_NOT_FOUND", `path not found: ${arg}`, { cause: error });
      }
      throw new SuiteError("SUITE_PATH_UNREADABLE", `cannot read ${arg} (${code})`, { cause: error });
    }
    if (isFolder) await searchFolder(absolute, arg, found);
    else found.push(absolute);
  }
  const unique = new Map<string, ScenarioFile>();
  for (const absolutePath of found) {
    const path = relative(cwd, absolutePath).split("\\").join("/") || ".";
    unique.set(absolutePath, { absolutePath, path });
  }
  return [...unique.values()].sort((a, b) => compareByteOrder(a.path, b.path));
}
