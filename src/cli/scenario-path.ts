/**
 * The scenario a command's argument names: a file as given, or for a folder its `scenario.yaml`
 * (or `scenario.yml`), so `agentchaos run .` runs the project's scenario. A folder without one
 * stays as given, and loading it then says it is a folder.
 */
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";

async function kind(path: string): Promise<"file" | "folder" | "none"> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "folder" : "file";
  } catch {
    return "none";
  }
}

/**
 * The path to load (absolute), how to name it in messages (as typed, or
 * `<folder>/scenario.yaml`), and whether it is a folder with no scenario file.
 */
export async function scenarioPath(
  argument: string,
  cwd: string,
): Promise<{ absolute: string; shown: string; emptyFolder: boolean }> {
  const absolute = resolve(cwd, argument);
  if ((await kind(absolute)) !== "folder") return { absolute, shown: argument, emptyFolder: false };
  for (const name of ["scenario.yaml", "scenario.yml"]) {
    if ((await kind(join(absolute, name))) === "file") {
      return { absolute: join(absolute, name), shown: join(argument, name), emptyFolder: false };
    }
  }
  return { absolute, shown: argument, emptyFolder: true };
}

/** The error of a folder with no scenario file. */
export const NO_SCENARIO_IN_FOLDER =
  "is a folder with no scenario.yaml; name a scenario file, or run every scenario in it with: agentchaos suite <folder>";
