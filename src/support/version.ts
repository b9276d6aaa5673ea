import { readFileSync } from "node:fs";

let cached: string | undefined;

/** The package version, read once from package.json next to dist/ (no heavy imports). */
export function packageVersion(): string {
  if (cached === undefined) {
    const url = new URL("../../package.json", import.meta.url);
    cached = (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
  }
  return cached;
}
