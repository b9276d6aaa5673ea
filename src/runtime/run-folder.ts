import { mkdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { AgentChaosError } from "../support/errors.js";
import { makeRunId } from "./run-id.js";

/** No run folder could be made; nothing was started or written. */
export class RunFolderError extends AgentChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("RUN_FOLDER_FAILED", message, options);
  }
}

/** The system error code of a failed file operation (`ENOENT`, …), or `error` when it has none. */
export function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === "string" ? code : "error";
}

/**
 * `mkdir -p`, one level at a time. (Node's own `recursive: true` never returns for some
 * paths, e.g. under /proc, so it is not used.)
 */
export async function makeFolders(path: string): Promise<void> {
  try {
    await mkdir(path);
    return;
  } catch (error) {
    const code = errnoCode(error);
    if (code === "EEXIST") {
      if ((await stat(path)).isDirectory()) return;
      throw error;
    }
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path) throw error;
  }
  await makeFolders(dirname(path));
  try {
    await mkdir(path);
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
  }
}

/** Creates `<outputDir>/<run-id>/` (the output folder with its parents); the run folder must be new. */
export async function createRunFolder(outputDir: string): Promise<{ runId: string; runDir: string }> {
  const base = resolve(outputDir);
  try {
    await makeFolders(base);
  } catch (error) {
    throw new RunFolderError(`cannot create output folder (${errnoCode(error)})`, { cause: error });
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const runId = makeRunId();
    const runDir = join(base, runId);
    try {
      await mkdir(runDir);
      return { runId, runDir };
    } catch (error) {
      if (errnoCode(error) !== "EEXIST") {
        throw new RunFolderError(`cannot create run folder (${errnoCode(error)})`, { cause: error });
      }
    }
  }
  throw new RunFolderError("cannot create a unique run folder");
}

/**
 * `createRunFolder` for a suite's or an explore's folder: its failure becomes the caller's own
 * error (made by `ownError` from the message and the failure).
 */
export async function createFolderOr(
  outputDir: string,
  ownError: (message: string, cause: RunFolderError) => Error,
): Promise<{ runId: string; runDir: string }> {
  try {
    return await createRunFolder(outputDir);
  } catch (error) {
    if (error instanceof RunFolderError) throw ownError(error.message, error);
    throw error;
  }
}
