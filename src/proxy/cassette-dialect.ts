/**
 * How the loopback upstreams of record and replay read a protocol's requests (docs/replay.md):
 * which requests are keyed (and by what), which are answered without the cassette, and how a
 * recorded answer is fitted to the live request. Plain HTTP keys every request by the proxy's
 * operation identity; MCP's dialect lives in the MCP layer.
 */
import type { Interaction, RequestKeyFields } from "../replay/cassette.js";
import { bodyHash, decodePath, queryHash } from "./fingerprint.js";
import { identityRule } from "./identity.js";
import { splitTarget } from "./request-target.js";

/** A request as the cassette keys it. */
export interface KeyedRequest {
  readonly key: RequestKeyFields;
  /** The body its salted shape (and a mismatch's pointers) is taken from. */
  readonly shapeBody: Buffer | null;
  /** The recorded answer as this request receives it. */
  answer(interaction: Interaction): Interaction;
}

export interface CassetteDialect {
  /** JSON Pointers left out of request shapes (identity.ignore_json_fields). */
  readonly shapeIgnore: readonly string[];
  /**
   * The key of a request, or null for a request the cassette neither records nor matches (it is
   * passed on live when recording, and answered by `localAnswer` when replaying).
   */
  keyOf(method: string, target: string, body: Buffer | null): KeyedRequest | null;
  /** The answer to a request `keyOf` leaves out. */
  localAnswer(method: string): Interaction;
}

const asRecorded = (interaction: Interaction): Interaction => interaction;

/** Plain HTTP: every request is keyed by method, decoded path, query hash and identity body hash. */
export function httpDialect(ignoreJsonFields: readonly string[]): CassetteDialect {
  const identity = identityRule(ignoreJsonFields);
  return {
    shapeIgnore: ignoreJsonFields,
    keyOf(method, target, body) {
      const parts = splitTarget(target);
      return {
        key: {
          method: method.toUpperCase(),
          path: decodePath(parts.rawPath),
          query_hash: queryHash(parts.rawQuery),
          body_hash: identity.fingerprintBodyHash({
            bytes: body,
            hash: bodyHash(body ?? Buffer.alloc(0)),
            tooLarge: false,
          }),
        },
        shapeBody: body,
        answer: asRecorded,
      };
    },
    localAnswer(method) {
      throw new Error(`no local answer for ${method}`);
    },
  };
}
