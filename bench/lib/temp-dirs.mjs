// Temporary folders of the bench, removed by their owner or, on error and Ctrl-C, all at once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dirs = new Set();

export function makeTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

export function removeAllTempDirs() {
  for (const dir of dirs) removeTempDir(dir);
}
