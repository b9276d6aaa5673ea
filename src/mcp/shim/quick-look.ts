import { targetName } from "../identity.js";
import { idKeyOf } from "../json-rpc.js";
import { MemberScanner } from "../member-scanner.js";

/**
 * What a line seems to be at a quick look (one scan for a few members, no parsing), enough to
 * let a large line move on before it is parsed for the evidence. For JSON text it agrees with
 * the full classification; `sure` is false when a member it needed was too long to keep.
 */
export type QuickLook =
  | { readonly kind: "request"; readonly method: string; readonly path: string; readonly sure: boolean }
  | { readonly kind: "response"; readonly idKey: string; readonly sure: boolean }
  | { readonly kind: "other"; readonly sure: boolean };

export function quickLook(line: Buffer): QuickLook {
  const scanner = new MemberScanner();
  scanner.push(line);
  const { method, rawId, hasResult, hasError, params, complete } = scanner.result();
  const idKey = rawId === null ? null : idKeyOf(JSON.parse(rawId));
  if (method !== null && idKey !== null) {
    return { kind: "request", method, path: targetName(method, params), sure: complete };
  }
  if (method === null && idKey !== null && (hasResult || hasError))
    return { kind: "response", idKey, sure: complete };
  return { kind: "other", sure: complete };
}
