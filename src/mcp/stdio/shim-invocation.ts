import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE_NAME = "agent-chaos";

/**
 * The built `agentchaos` script of this package: found by walking up from this module to the
 * package's own package.json, so it is the same whether this code runs bundled
 * (dist/bin), compiled (dist/mcp/stdio) or from source (src/mcp/stdio, in tests).
 */
export function builtCliPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME) {
          return join(folder, "dist", "bin", "agentchaos.js");
        }
      } catch {
        // Not our manifest: keep walking up.
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return join(dirname(fileURLToPath(import.meta.url)), "agentchaos.js");
    folder = parent;
  }
}

/**
 * What the workload spawns in place of the server: this Node.js executable (an absolute path)
 * running `agentchaos mcp-shim <options>`.
 */
export function shimInvocation(
  cliPath: string | undefined,
  options: readonly string[],
): { command: string; args: string[] } {
  return { command: process.execPath, args: [cliPath ?? builtCliPath(), "mcp-shim", ...options] };
}
