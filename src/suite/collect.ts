/**
 * Collecting a suite's scenario files (see docs/suites.md): each argument is a file, or a folder
 * searched recursively for `*.yaml` / `*.yml`. Not searched: folders whose name starts with a
 * dot, `node_modules`, and Agent Chaos output (a folder holding `events.jsonl`, `suite.json` or
 * `trials.json`: run folders keep a `scenario.yaml` copy). A YAML file found in a folder is kept
 * only when it looks like a scenario (a top-level `schema_version`); a file named as an argument
 * always is. `--exclude` globs leave paths out. Sorted by path relative to the current directory,
 * in byte order; a file reached twice counts once.
 */
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import picomatch from "picomatch";
import { compareByteOrder } from "../report/suite-document.js";
import { SuiteError } from "../report/suite-errors.js";
import { errnoCode } from "../runtime/run-folder.js";
import { slashRelative } from "../support/slash-path.js";
import { isScenarioFile } from "./scenario-candidate.js";

export interface ScenarioFile {
  readonly absolutePath: string;
  /** Relative to the current directory, with `/` separators (the entry's `path`). */
  readonly path: string;
}

/** Files that only Agent Chaos output folders hold: run folders, suites, trials. */
const OUTPUT_MARKERS = new Set(["events.jsonl", "suite.json", "trials.json"]);

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

/** What collection found: the scenarios, and the paths it left out and why. */
export interface Collected {
  readonly files: ScenarioFile[];
  /** YAML files found in a folder with no top-level `schema_version` (paths as `ScenarioFile.path`). */
  readonly notScenarios: readonly string[];
  /** Paths an `--exclude` glob matched. */
  readonly excluded: readonly string[];
}

function displayPath(cwd: string, absolutePath: string): string {
  return slashRelative(cwd, absolutePath) || ".";
}

/**
 * A matcher for `--exclude` globs, tried on the path relative to the current directory; a glob
 * without a `/` also matches a file's base name (`fake-llm.yaml`, `*.wip.yaml`).
 */
function excludeMatcher(globs: readonly string[]): (path: string) => boolean {
  const matchers = globs.map((glob) => picomatch(glob, { dot: true, basename: !glob.includes("/") }));
  return (path) => matchers.some((matches) => matches(path));
}

/**
 * The scenario files the arguments name; throws `SuiteError` for a path that does not exist or
 * cannot be read.
 */
export async function collectScenarioFiles(
  args: readonly string[],
  cwd: string,
  exclude: readonly string[] = [],
): Promise<Collected> {
  const found: string[] = [];
  const named = new Set<string>();
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
    else {
      found.push(absolute);
      named.add(absolute);
    }
  }
  const excludes = excludeMatcher(exclude);
  const unique = new Map<string, ScenarioFile>();
  const excluded: string[] = [];
  const notScenarios: string[] = [];
  for (const absolutePath of new Set(found)) {
    const path = displayPath(cwd, absolutePath);
    if (excludes(path)) excluded.push(path);
    else if (named.has(absolutePath) || (await isScenarioFile(absolutePath))) {
      unique.set(absolutePath, { absolutePath, path });
    } else notScenarios.push(path);
  }
  return {
    files: [...unique.values()].sort((a, b) => compareByteOrder(a.path, b.path)),
    notScenarios: notScenarios.sort(compareByteOrder),
    excluded: excluded.sort(compareByteOrder),
  };
}

function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 3).join(", ");
  return paths.length > 3 ? `${shown}, …` : shown;
}

/** One line saying what collection left out and why, or null when it left nothing out. */
export function skippedSummary(collected: Pick<Collected, "notScenarios" | "excluded">): string | null {
  const parts: string[] = [];
  const { notScenarios, excluded } = collected;
  if (notScenarios.length > 0) {
    const files = notScenarios.length === 1 ? "YAML file" : "YAML files";
    parts.push(
      `${notScenarios.length} ${files} with no top-level schema_version key, so not a scenario (${listed(notScenarios)})`,
    );
  }
  if (excluded.length > 0) {
    parts.push(`${excluded.length} ${excluded.length === 1 ? "file" : "files"} matching --exclude`);
  }
  return parts.length === 0 ? null : `Skipped ${parts.join("; ")}`;
}
