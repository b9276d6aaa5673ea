import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";

export const PROGRAMS = join(import.meta.dirname, "..", "fixtures", "programs");

/** A port that was free a moment ago (bind port 0, read it, release it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A YAML flow list of strings, each JSON-quoted (valid YAML). */
export function yamlList(items: readonly string[]): string {
  return `[${items.map((item) => JSON.stringify(item)).join(", ")}]`;
}

/** Writes a scenario file into `dir` and returns its path. */
export async function writeScenario(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, `${name}.yaml`);
  await writeFile(path, text);
  return path;
}

/** A managed fixture HTTP dependency block for a scenario on `port`. */
export function fixtureDependency(
  port: number,
  extraArgs: readonly string[] = [],
  readinessTimeout = 5,
): string {
  return `dependency:
  type: http
  base_url: http://127.0.0.1:${port}
  start:
    command: ${yamlList([process.execPath, join(PROGRAMS, "http-ok.mjs"), "--port", String(port), ...extraArgs])}
    readiness:
      path: /health
      timeout_seconds: ${readinessTimeout}
`;
}
