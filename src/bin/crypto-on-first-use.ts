/**
 * `node:crypto` as the MCP stdio shim's own executable sees it (tsdown.config.ts puts this module
 * in its place): the real module is loaded on the first hash, not at start-up. Loading it costs
 * about 4 ms of CPU, which the shim then spends on the agent's first message, while the server
 * it has just spawned is still starting, instead of before that server is spawned.
 * (docs/mcp.md#cost). The fake model server's modules get it too in the `agentchaos` build
 * (docs/performance.md#fourth-pass-the-fake-model-servers-start): only its embeddings hash.
 * Only what the shim and the fake model use is here; a build that needs more fails.
 * It is loaded with the CommonJS file's own `module.require` (the bundler leaves that call
 * alone), so that the shim need not load `node:module` for `createRequire` at start-up either.
 */
import type * as NodeCrypto from "node:crypto";

let loaded: typeof NodeCrypto | undefined;

function crypto(): typeof NodeCrypto {
  loaded ??= module.require("node:crypto") as typeof NodeCrypto;
  return loaded;
}

export function createHash(algorithm: string): NodeCrypto.Hash {
  return crypto().createHash(algorithm);
}

/** One-call hashing, where this Node.js has it (20.12 and later); else through a Hash object. */
export function hash(algorithm: string, data: string | Uint8Array, encoding: "hex"): string {
  const nodeCrypto = crypto();
  if (typeof nodeCrypto.hash === "function") return nodeCrypto.hash(algorithm, data, encoding);
  return nodeCrypto.createHash(algorithm).update(data).digest(encoding);
}

export function randomUUID(): string {
  return crypto().randomUUID();
}
