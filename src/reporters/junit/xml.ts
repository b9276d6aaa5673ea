/**
 * XML 1.0 text escaping for user text (scenario names, paths, diagnostics). Characters XML 1.0
 * cannot carry at all (C0 controls other than tab, newline and carriage return; U+FFFE, U+FFFF;
 * unpaired surrogates) are replaced by a visible `\uXXXX` spelling, so a hostile name still
 * yields a document every parser accepts. `>` is always escaped, so `]]>` never appears.
 */

/** Whether a UTF-16 code unit at `index` can appear in an XML 1.0 document. */
function legalAt(value: string, index: number): boolean {
  const code = value.charCodeAt(index);
  if (code < 0x20) return code === 0x09 || code === 0x0a || code === 0x0d;
  if (code === 0xfffe || code === 0xffff) return false;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = value.charCodeAt(index + 1);
    return next >= 0xdc00 && next <= 0xdfff;
  }
  if (code >= 0xdc00 && code <= 0xdfff) {
    const previous = value.charCodeAt(index - 1);
    return previous >= 0xd800 && previous <= 0xdbff;
  }
  return true;
}

/** The value with every character XML 1.0 cannot carry spelled `\uXXXX`. */
function legal(value: string): string {
  let out = "";
  let from = 0;
  for (let index = 0; index < value.length; index++) {
    if (legalAt(value, index)) continue;
    out += `${value.slice(from, index)}${visible(value.charCodeAt(index))}`;
    from = index + 1;
  }
  return from === 0 ? value : out + value.slice(from);
}

function visible(code: number): string {
  return `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

const TEXT_ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "\r": "&#13;",
};
const ATTRIBUTE_ENTITIES: Readonly<Record<string, string>> = {
  ...TEXT_ENTITIES,
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

/** Escapes element text. */
export function xmlText(value: string): string {
  return legal(value).replace(/[&<>\r]/g, (char) => TEXT_ENTITIES[char] ?? char);
}

/** Escapes an attribute value (for double-quoted attributes; whitespace kept as character references). */
export function xmlAttribute(value: string): string {
  return legal(value).replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ENTITIES[char] ?? char);
}
