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
