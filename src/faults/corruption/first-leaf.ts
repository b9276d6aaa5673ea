/**
 * The first leaf value of a JSON text: the first string, number or boolean in document order
 * (docs/faults.md, corruption faults without a `pointer`), with where it is written and the
 * RFC 6901 pointer that names it. One forward scan that stops at the leaf; no recursion, so a
 * deeply nested text cannot exhaust the stack. The text must already be known to be valid JSON.
 */
import { skipSpace, skipString, skipValue } from "./json-span.js";

export interface FirstLeaf {
  readonly start: number;
  readonly end: number;
  /** RFC 6901, e.g. `/choices/0/message/content`; `""` when the whole text is the leaf. */
  readonly pointer: string;
}

function escapeToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** At a member's key: reads it, returns the key and the index of its value. */
function readKey(text: string, at: number): { key: string; value: number } {
  const keyEnd = skipString(text, at);
  const key = JSON.parse(text.slice(at, keyEnd)) as string;
  return { key, value: skipSpace(text, skipSpace(text, keyEnd) + 1) };
}

function isLeafStart(char: string | undefined): boolean {
  return (
    char === '"' ||
    char === "t" ||
    char === "f" ||
    char === "-" ||
    (char !== undefined && char >= "0" && char <= "9")
  );
}

/**
 * A key that reads as a field name (letters, digits, `_`, `-`, `.`, `$`, at most 64 characters,
 * not starting with a digit). Other keys are data (ids, e-mail addresses, dates), and the pointer
 * is recorded in the events, so their members are passed over.
 */
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_.$-]{0,63}$/;

/** Whether the value at the current path sits under a key that is data rather than a name. */
function underDataKey(path: readonly (string | number)[]): boolean {
  const last = path.at(-1);
  return typeof last === "string" && !FIELD_NAME.test(last);
}

/**
 * The first string, number or boolean of valid JSON `text` whose path is made of array indexes
 * and field names (members under data keys are passed over), or null when it has none.
 */
export function firstLeaf(text: string): FirstLeaf | null {
  const path: (string | number)[] = [];
  const open: ("{" | "[")[] = [];
  let i = skipSpace(text, 0);
  for (;;) {
    // At the start of a value.
    const char = text[i];
    if (underDataKey(path)) {
      i = skipValue(text, i);
    } else if (isLeafStart(char)) {
      return {
        start: i,
        end: skipValue(text, i),
        pointer: path.map((token) => `/${escapeToken(token)}`).join(""),
      };
    } else if (char === "{" || char === "[") {
      const inside = skipSpace(text, i + 1);
      if (text[inside] !== (char === "{" ? "}" : "]")) {
        open.push(char);
        if (char === "[") {
          path.push(0);
          i = inside;
        } else {
          const member = readKey(text, inside);
          path.push(member.key);
          i = member.value;
        }
        continue;
      }
      i = inside + 1;
    } else {
      i = skipValue(text, i); // null
    }
    // After a value: the next element or member, or close containers until there is one.
    for (;;) {
      i = skipSpace(text, i);
      const container = open.at(-1);
      if (container === undefined) return null;
      if (text[i] !== ",") {
        open.pop();
        path.pop();
        i += 1;
        continue;
      }
      i = skipSpace(text, i + 1);
      if (container === "[") {
        path.push((path.pop() as number) + 1);
      } else {
        const member = readKey(text, i);
        path.pop();
        path.push(member.key);
        i = member.value;
      }
      break;
    }
  }
}
