/**
 * How a JSON-RPC request is keyed in a cassette, for MCP over stdio and over Streamable HTTP
 * alike (docs/replay.md): its method, its target name and the hash of its canonical `params`
 * without `_meta` (the MCP identity); its shape, for naming what differs, is `params` itself.
 */
import { queryHash } from "../proxy/fingerprint.js";
import type { RequestKeyFields } from "../replay/cassette.js";
import { paramsHash, targetName } from "./identity.js";
import { paramsWithoutMeta } from "./replay-answers.js";

export interface CassetteRequest {
  readonly key: RequestKeyFields;
  readonly shape: Buffer;
}

export function cassetteRequestOf(method: string, params: unknown): CassetteRequest {
  return {
    key: {
      method,
      path: targetName(method, params),
      query_hash: queryHash(""),
      body_hash: paramsHash(params),
    },
    shape: Buffer.from(JSON.stringify({ params: paramsWithoutMeta(params) ?? null }), "utf8"),
  };
}
