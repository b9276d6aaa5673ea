import { fileURLToPath } from "node:url";
import { readRegularFileSync } from "../support/regular-file.js";

let cached: string | undefined;
/** The package's own manifest is a few kilobytes. */
const MANIFEST_MAX_BYTES = 1024 * 1024;

/** The package version, read once from package.json next to dist/ (no heavy imports). */
export function packageVersion(): string {
  if (cached === undefined) {
    const url = new URL("../../package.json", import.meta.url);
    const text = readRegularFileSync(fileURLToPath(url), MANIFEST_MAX_BYTES).toString("utf8");
    cached = (JSON.parse(text) as { version: string }).version;
  }
  return cached;
}
