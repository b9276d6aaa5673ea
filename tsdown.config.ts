import { fileURLToPath } from "node:url";
import { defineConfig, type TsdownPlugin, type UserConfig } from "tsdown";

/**
 * The `agentchaos` executable is bundled with its dependencies into a few files: loading one
 * file instead of ~150 modules halves the CLI's start-up time. Those files are CommonJS (a
 * package.json of their own in dist/bin says so, since the package's type is "module" and the
 * executable's name ends in .js): Node then loads the executable and each chunk a command
 * imports lazily with `require`, without starting the ES module loader, and built-in modules
 * without their ES module wrappers, which saves each command tens of milliseconds of CPU
 * (docs/performance.md).
 *
 * The MCP stdio shim's own executable is one CommonJS file with nothing else in it: Node loads it
 * synchronously, without starting the ES module loader, which saves each server an agent starts
 * ~10 ms of CPU, and it loads `node:crypto` and `node:os` on first use only (docs/mcp.md#cost).
 * It is also minified (names kept, so error names stay readable): V8 compiles half as much text
 * at each start.
 *
 * The library (dist/index.js and the rest of dist/) is compiled file by file by
 * `tsc -p tsconfig.build.json` (TypeScript 7, CONTRIBUTING.md#testing).
 */
const shared: UserConfig = {
  outDir: "dist/bin",
  platform: "node",
  target: "node20",
  clean: false,
  dts: false,
  sourcemap: false,
  deps: { alwaysBundle: [/.*/] },
};

/** Emits dist/bin/package.json, which makes the `.js` files of that folder CommonJS. */
function commonJsFolder(): TsdownPlugin {
  return {
    name: "agentchaos-commonjs-folder",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "package.json", source: '{ "type": "commonjs" }\n' });
    },
  };
}

const CRYPTO_ON_FIRST_USE = fileURLToPath(new URL("src/bin/crypto-on-first-use.ts", import.meta.url));
const FAKE_LLM_SOURCES = fileURLToPath(new URL("src/fake-llm/", import.meta.url));

/**
 * The fake model server's modules see `node:crypto` loaded on first use (only its embeddings
 * hash): `agentchaos fake-llm`, which many scenarios start as a dependency, then starts without
 * loading it (docs/performance.md#fourth-pass-the-fake-model-servers-start).
 */
function fakeLlmCryptoOnFirstUse(): TsdownPlugin {
  return {
    name: "agentchaos-fake-llm-crypto-on-first-use",
    resolveId(source, importer) {
      if (source !== "node:crypto" || importer === undefined) return null;
      return importer.startsWith(FAKE_LLM_SOURCES) ? CRYPTO_ON_FIRST_USE : null;
    },
  };
}

export default defineConfig([
  {
    ...shared,
    entry: { agentchaos: "src/bin/agentchaos.ts" },
    format: "cjs",
    outExtensions: () => ({ js: ".js" }),
    plugins: [commonJsFolder(), fakeLlmCryptoOnFirstUse()],
  },
  {
    ...shared,
    entry: { "mcp-shim": "src/bin/mcp-shim.ts" },
    format: "cjs",
    alias: {
      "node:crypto": CRYPTO_ON_FIRST_USE,
      "node:os": fileURLToPath(new URL("src/bin/os-on-first-use.ts", import.meta.url)),
    },
    outExtensions: () => ({ js: ".cjs" }),
    minify: { compress: { keepNames: { function: true, class: true } }, mangle: { keepNames: true } },
  },
]);
