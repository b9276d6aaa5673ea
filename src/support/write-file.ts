import { open, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { AgentChaosError } from "./errors.js";

/** A report file could not be written; what was written before it stays. */
export class OutputWriteError extends AgentChaosError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("OUTPUT_WRITE_FAILED", message, options);
  }
}

/** Writes `<folder>/<name>` through a temporary file and a rename; returns the absolute path. */
export async function writeFileAtomically(folder: string, name: string, text: string): Promise<string> {
  const path = resolve(join(folder, name));
  const temporary = `${path}.tmp`;
  try {
    const file = await open(temporary, "w");
    try {
      await file.writeFile(text, "utf8");
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    const code = (error as NodeJS.ErrnoException | null)?.code;
    throw new OutputWriteError(`cannot write ${name} (${typeof code === "string" ? code : "error"})`, {
      cause: error,
    });
  }
  return path;
}
