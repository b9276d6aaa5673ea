/** The fixed texts `llm_misbehave` writes into an answer (docs/faults.md, "llm_misbehave"). */

/** The name `unknown_tool` gives the first tool call: no request offers it. */
export const UNKNOWN_TOOL_NAME = "agentchaos_unknown_tool";

/** What `refusal` answers in place of the content. */
export const REFUSAL_TEXT = "I'm sorry, but I can't help with that.";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * A tool call's arguments cut in the middle: the text up to the middle of its last string
 * (`{"city": "Paris"}` → `{"city": "Par`), or, with no string in it, the first half of the text
 * (at least one character; `{` for an empty one). One pass over the text.
 */
export function cutArguments(text: string): string {
  let lastOpen = -1;
  let lastClose = -1;
  let open = -1;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (open < 0) {
      if (code === QUOTE) open = index;
    } else if (code === BACKSLASH) {
      index += 1;
    } else if (code === QUOTE) {
      lastOpen = open;
      lastClose = index;
      open = -1;
    }
  }
  if (lastOpen >= 0) return text.slice(0, lastOpen + 1 + Math.ceil((lastClose - lastOpen - 1) / 2));
  const trimmed = text.trim();
  if (trimmed.length < 2) return "{";
  return trimmed.slice(0, Math.ceil(trimmed.length / 2));
}
