import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { CanaryBook } from "../faults/corruption/canary-book.js";

/**
 * Once every process of the run has ended, the run folder's log files (the workload's, the
 * verify command's, the dependencies') keep no canary: each literal is shown as
 * `[canary <fault id>]` (docs/faults.md, canary sinks). A file that cannot be rewritten is left
 * as it is; the events already hold the evidence.
 */
export async function maskCanariesInLogs(runDir: string, canaries: CanaryBook): Promise<void> {
  if (!canaries.armed) return;
  for (const path of await logFiles(runDir)) {
    try {
      const text = await readFile(path, "latin1");
      const masked = canaries.mask(text);
      if (masked !== text) await writeFile(path, masked, "latin1");
    } catch {
      // Unreadable or unwritable: nothing more to do here.
    }
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
