import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readRegularFileSync } from "../../support/regular-file.js";

const PACKAGE_NAME = "agent-chaos";
/** A package manifest is a few kilobytes; a larger file is not ours. */
const MANIFEST_MAX_BYTES = 1024 * 1024;
const SHIM_SCRIPT = "mcp-shim.cjs";

/**
 * The built MCP stdio shim script of this package (`dist/bin/mcp-shim.cjs`, the shim alone in
 * one file: docs/mcp.md#cost): found by walking up from this module to the package's own
 * package.json, so it is the same whether this code runs bundled (dist/bin), compiled
 * (dist/mcp/stdio) or from source (src/mcp/stdio, in tests).
 */
export function builtShimPath(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest)) {
      try {
        const text = readRegularFileSync(manifest, MANIFEST_MAX_BYTES).toString("utf8");
        if ((JSON.parse(text) as { name?: unknown }).name === PACKAGE_NAME) {
          return join(folder, "dist", "bin", SHIM_SCRIPT);
        }
      } catch {
        // Not our manifest: keep walking up.
      }
    }
    const parent = dirname(folder);
    if (parent === folder) return join(dirname(fileURLToPath(import.meta.url)), SHIM_SCRIPT);
    folder = parent;
  }
}

/**
 * What the workload spawns in place of the server: this Node.js executable (an absolute path)
 * running `<script> mcp-shim <options>`, where the script is the shim's own (default) or the
 * whole `agentchaos` CLI, which takes the same command line.
 */
export function shimInvocation(
  scriptPath: string | undefined,
  options: readonly string[],
): { command: string; args: string[] } {
  return { command: process.execPath, args: [scriptPath ?? builtShimPath(), "mcp-shim", ...options] };
}
