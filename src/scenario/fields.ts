import * as z from "zod";

/**
 * Building blocks of the scenario schema. YAML is parsed with `intAsBigInt`, so integers
 * arrive as `bigint` and fractions (and `.nan`, `.inf`) as `number`: an integer field accepts
 * only a `bigint`, which rejects `2.5`, `2.0`, `true` and `"2"` alike.
 *
 * Every schema carries its own "expected ..." wording; `describe` says what was found instead.
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** What a YAML value is, for messages. With `revealNumbers` false, numbers are not echoed. */
export function describe(value: unknown, revealNumbers = true): string {
  if (value === null) return "null";
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  if (typeof value === "boolean") return `the boolean ${value}`;
  if (Array.isArray(value)) return "a list";
  if (ArrayBuffer.isView(value)) return "binary data";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "bigint") return revealNumbers ? `the integer ${value}` : "an integer";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return ".nan";
    if (!Number.isFinite(value)) return value > 0 ? ".inf" : "-.inf";
    if (!revealNumbers) return "a number";
    const text = String(value);
    return `the number ${/^-?\d+$/.test(text) ? `${text}.0` : text}`;
  }
  return typeof value;
}

/** An error map: `expected <what>, got <found>`, or `missing; expected <what>` for an absent key. */
export function expecting(expected: string, revealNumbers = true): (issue: { input?: unknown }) => string {
  return (issue) =>
    issue.input === undefined
      ? `missing; expected ${expected}`
      : `expected ${expected}, got ${describe(issue.input, revealNumbers)}`;
}

/** A strict mapping: any key not in `shape` is an error that lists the accepted keys. */
export function mapping<Shape extends z.ZodRawShape>(shape: Shape, what: string) {
  const keys = Object.keys(shape).join(", ");
  const typeError = expecting(`a mapping (${what})`);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `expected one of ${keys} (${what})` : typeError(issue),
  });
}

/** An integer in `[min, max]`, kept as a BigInt (`max` defaults to the largest safe integer). */
export function bigintInRange(expected: string, min: bigint, max: bigint = MAX_SAFE) {
  const error = expecting(expected);
  return z.bigint({ error }).refine((value) => value >= min && value <= max, { error });
}

/** An integer in `[min, max]`, as a JS number. */
export function integer(expected: string, min: bigint, max: bigint = MAX_SAFE) {
  return bigintInRange(expected, min, max).transform((value) => Number(value));
}

export const positiveInteger = integer("a positive integer", 1n);

/** A positive, finite number written as an integer or a fraction. */
export function positiveNumber() {
  const error = expecting("a positive number");
  return z
    .union([z.bigint(), z.number()], { error })
    .refine((value) => value > 0, { error })
    .transform((value) => Number(value));
}

export function nonEmptyString(expected = "a non-empty string") {
  return z.string({ error: expecting(expected) }).min(1, { error: expecting(expected) });
}

/** A string that must match `pattern` (anchored by the caller). */
export function matching(pattern: RegExp, expected: string) {
  const error = expecting(expected);
  return z.string({ error }).regex(pattern, { error });
}

/** A path glob of a target: `*` is its only wildcard (docs/scenario.md). */
export const pathGlob = matching(/^\/[^?[\]]*$/, "a path that begins with / and has no ?, [ or ]");

/** An HTTP target (`what` names it in messages): the method upper case or null for any, the path glob. */
export function httpTargetSchema(what: string) {
  return mapping({ method: nonEmptyString().optional(), path: pathGlob }, what).transform((target) => ({
    method: target.method === undefined ? null : target.method.toUpperCase(),
    path: target.path,
  }));
}

/** A list of at least one item, typed as a non-empty tuple. */
export function nonEmptyList<Item extends z.ZodType>(item: Item, expected: string) {
  return z
    .array(item, { error: expecting(expected) })
    .transform((list, ctx): [z.output<Item>, ...z.output<Item>[]] => {
      const [first, ...rest] = list;
      if (first === undefined) {
        ctx.issues.push({ code: "custom", input: list, message: `expected ${expected}, got an empty list` });
        return z.NEVER;
      }
      return [first, ...rest];
    });
}
