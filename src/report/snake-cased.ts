/** `startOccurrence` → `start_occurrence`: the report's name of an analysis key. */
export type SnakeKey<K extends string> = K extends `${infer Head}${infer Rest}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeKey<Rest>}`
  : K;

/**
 * An analysis object as a report writes it: the same values, every key in snake case, all the
 * way down, so a report type is derived from the analysis type instead of restating it.
 */
export type SnakeCased<T> = T extends readonly (infer Item)[]
  ? readonly SnakeCased<Item>[]
  : T extends object
    ? { readonly [K in keyof T as SnakeKey<K & string>]: SnakeCased<T[K]> }
    : T;

/** `startOccurrence` → `start_occurrence`. */
function snakeKey(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** An analysis value as a report writes it: keys in their order, snake-cased all the way down; lists copied. */
export function snakeCased<T>(value: T): SnakeCased<T> {
  if (Array.isArray(value)) return value.map(snakeCased) as SnakeCased<T>;
  if (typeof value !== "object" || value === null) return value as SnakeCased<T>;
  const entries = Object.entries(value).map(([key, item]) => [snakeKey(key), snakeCased(item)]);
  return Object.fromEntries(entries) as SnakeCased<T>;
}
