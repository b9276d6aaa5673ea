/**
 * "Did you mean" for schema-2 problems: an unknown key or a value outside a fixed list of words
 * gets the nearest accepted word when one is close (at most two edits, a swap of two neighbours
 * counting as one, and fewer edits than half the word), and a value outside a fixed list is
 * quoted. Only words of the list are ever suggested; only values checked against a list of
 * words are quoted (never a free value such as an env value).
 */

/** Edits between two words: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The one closest candidate, when it is close enough and no other is as close. */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  if (word.length > 64) return null;
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const candidate of new Set(candidates)) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
      tie = false;
    } else if (distance === bestDistance) tie = true;
  }
  if (best === null || tie || bestDistance === 0 || bestDistance > 2 || bestDistance * 2 >= word.length)
    return null;
  return best;
}

const UNKNOWN_KEY = /^unknown key ("(?:[^"\\]|\\.)*"); expected one of ([^(]+?)(?: \(|$)/;
const QUOTED_CHOICES = /expected ((?:"[^"]+", )*"[^"]+"(?: or "[^"]+")?)/;
const LISTED_CHOICES = /expected one of ([a-z0-9_/, ]+), got ("(?:[^"\\]|\\.)*")$/;

function suggestion(word: string, candidates: readonly string[]): string {
  const near = closestWord(word, candidates);
  return near === null ? "" : `; did you mean ${JSON.stringify(near)}?`;
}

/**
 * The message with a suggestion added (and, for a value checked against quoted choices, the
 * value quoted instead of "got a string"). `value` is the offending value in the file.
 */
export function withSuggestion(message: string, value: unknown): string {
  const unknownKey = UNKNOWN_KEY.exec(message);
  if (unknownKey !== null) {
    const key = JSON.parse(unknownKey[1] as string) as string;
    const candidates = (unknownKey[2] as string).split(", ");
    return `${message}${suggestion(key, candidates)}`;
  }
  const listed = LISTED_CHOICES.exec(message);
  if (listed !== null) {
    const got = JSON.parse(listed[2] as string) as string;
    return `${message}${suggestion(got, (listed[1] as string).split(", "))}`;
  }
  const quoted = QUOTED_CHOICES.exec(message);
  if (quoted !== null && message.endsWith(", got a string") && typeof value === "string") {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a value with a control character is not quoted
    if (value.length > 64 || /[\u0000-\u001f\u007f]/.test(value)) return message;
    const choices = [...(quoted[1] as string).matchAll(/"([^"]+)"/g)].map((match) => match[1] as string);
    return `${message.slice(0, -"a string".length)}${JSON.stringify(value)}${suggestion(value, choices)}`;
  }
  return message;
}
