import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { CanaryBook } from "../faults/corruption/canary-book.js";
import { type ReplaceInFileOptions, replaceLiteralsInFile } from "../support/literal-replace.js";

/**
 * Once every process of the run has ended, the run folder's log files (the workload's, the
 * verify command's, the dependencies') keep no canary: each literal is shown as
 * `[canary <fault id>]` (docs/faults.md, canary sinks). Each file is masked while it is streamed,
 * and rewritten through a temporary file only when it holds a canary; a file that cannot be
 * rewritten is left as it was (the events already hold the evidence).
 */
export async function maskCanariesInLogs(
  runDir: string,
  canaries: CanaryBook,
  options: ReplaceInFileOptions = {},
): Promise<void> {
  if (!canaries.armed) return;
  const replacements = canaries.masks().map(({ literal, mask }) => ({
    literal: Buffer.from(literal, "utf8"),
    replacement: Buffer.from(mask, "utf8"),
  }));
  for (const path of await logFiles(runDir)) {
    // Unreadable or unwritable: the file stays as it was.
    await replaceLiteralsInFile(path, replacements, options).catch(() => undefined);
  }
}

async function logFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await logFiles(path)));
    else if (entry.isFile() && entry.name.endsWith(".log")) files.push(path);
  }
  return files;
}
