import type { CanaryType, CanaryValues } from "./canary.js";
import { firstLeaf } from "./first-leaf.js";
import { locateValue } from "./json-span.js";

/** What a corruption did to one JSON text. */
export type Corruption =
  | {
      readonly kind: "corrupted";
      readonly text: string;
      readonly type: CanaryType;
      /** The pointer of the replaced value (the one given, or the first leaf's). */
      readonly pointer: string | null;
    }
  | { readonly kind: "not_json" }
  | { readonly kind: "pointer_not_found" };

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The canary's type and written form for the value written as `original`; null for null, objects and arrays. */
function replacementFor(
  original: string,
  values: CanaryValues,
): { type: CanaryType; written: string } | null {
  const first = original[0];
  if (first === '"') return { type: "string", written: JSON.stringify(values.text) };
  if (first === "t" || first === "f") return { type: "boolean", written: first === "t" ? "false" : "true" };
  if (first === "-" || (first !== undefined && first >= "0" && first <= "9"))
    return { type: "number", written: String(values.integer) };
  return null;
}

/**
 * Replaces the string, number or boolean the pointer names by its canary (docs/faults.md,
 * corruption faults); every other character stays as written. Linear in the text's length.
 * Null `tokens`: the first leaf value in document order.
 */
export function corruptJson(
  text: string,
  tokens: readonly string[] | null,
  values: CanaryValues,
): Corruption {
  if (!isJson(text)) return { kind: "not_json" };
  const leaf = tokens === null ? firstLeaf(text) : null;
  const span = tokens === null ? leaf : locateValue(text, tokens);
  if (span === null) return { kind: "pointer_not_found" };
  const replacement = replacementFor(text.slice(span.start, span.end), values);
  if (replacement === null) return { kind: "pointer_not_found" };
  return {
    kind: "corrupted",
    text: text.slice(0, span.start) + replacement.written + text.slice(span.end),
    type: replacement.type,
    pointer: leaf === null ? null : leaf.pointer,
  };
}
