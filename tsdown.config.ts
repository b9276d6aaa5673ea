import { defineConfig } from "tsdown";

/**
 * The `agentchaos` executable is bundled with its dependencies into a few files: loading one
 * file instead of ~150 modules halves the CLI's start-up time. The library (dist/index.js and
 * the rest of dist/) is compiled file by file by `tsc -p tsconfig.build.json`.
 */
export default defineConfig({
  entry: { agentchaos: "src/bin/agentchaos.ts" },
  outDir: "dist/bin",
  format: "esm",
  platform: "node",
  target: "node20",
  clean: false,
  dts: false,
  sourcemap: false,
  deps: { alwaysBundle: [/.*/] },
  outExtensions: () => ({ js: ".js" }),
});
