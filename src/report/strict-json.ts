/**
 * Strict reading of a parsed JSON tree (lossless-json: every number is a `LosslessNumber` that
 * keeps its text). Objects must have exactly the listed keys; integers must be written as
 * integers (`2`, never `2.0` or `2e0`); `null` only where a reader asks for it. Every violation
 * throws `REPORT_SCHEMA_INVALID` with the key path.
 */
import { isLosslessNumber } from "lossless-json";
import { utcTimestamp } from "../events/field-checks.js";
import { invalidAt } from "./errors.js";

const INTEGER_TEXT = /^-?\d+$/;
/** Unknown key names come from the file: only well-formed names are echoed in the key path. */
const PRINTABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function childPath(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** The exact integer a JSON number token denotes, or null when it is not an integer literal. */
export function integerLiteral(value: unknown): bigint | null {
  if (!isLosslessNumber(value) || !INTEGER_TEXT.test(value.value)) return null;
  return BigInt(value.value);
}

/** A JSON integer literal in JavaScript's safe range, else `REPORT_SCHEMA_INVALID` at `path`. */
export function safeInteger(value: unknown, path: string): number {
  const exact = integerLiteral(value);
  if (exact === null || exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw invalidAt(path);
  }
  return Number(exact);
}

/** The key path that names a key of the file: the key's own path only when it is well formed. */
export function keyPathOf(path: string, key: string): string | null {
  return PRINTABLE_KEY.test(key) ? childPath(path, key) : path || null;
}

/** Reads the value under `key` of an object: one of the accessors below, or a stricter one. */
export type FieldReader<T> = (object: StrictObject, key: string) => T;

/** An object's keys in file order, each with its reader: the key list and the reading in one. */
export type Fields<T> = { readonly [K in keyof T]-?: FieldReader<T[K]> };

/** One JSON object being read: typed accessors for its keys, each failing with its own path. */
export class StrictObject {
  private constructor(
    private readonly value: Record<string, unknown>,
    readonly path: string,
  ) {}

  /** Checks that `value` is an object with exactly `keys` (no unknown key, none missing). */
  static of(value: unknown, path: string, keys: readonly string[]): StrictObject {
    if (!isJsonObject(value)) throw invalidAt(path === "" ? null : path);
    for (const key of Object.keys(value)) {
      if (!keys.includes(key)) throw invalidAt(keyPathOf(path, key));
    }
    for (const key of keys) {
      if (!Object.hasOwn(value, key)) throw invalidAt(childPath(path, key));
    }
    return new StrictObject(value, path);
  }

  /** Every key of `fields`, read in their order. */
  read<T>(fields: Fields<T>): T {
    const result: Record<string, unknown> = {};
    for (const [key, read] of Object.entries<FieldReader<unknown>>(fields)) result[key] = read(this, key);
    return result as T;
  }

  /** The object under `key` with exactly the keys of `fields`, read in their order. */
  record<T>(key: string, fields: Fields<T>): T {
    return this.object(key, Object.keys(fields)).read(fields);
  }

  /** A list of objects with exactly the keys of `fields`, each read in their order. */
  recordList<T>(key: string, fields: Fields<T>): T[] {
    return this.objectList(key, Object.keys(fields)).map((item) => item.read(fields));
  }

  raw(key: string): unknown {
    return this.value[key];
  }

  at(key: string): string {
    return childPath(this.path, key);
  }

  object(key: string, keys: readonly string[]): StrictObject {
    return StrictObject.of(this.value[key], this.at(key), keys);
  }

  string(key: string): string {
    const value = this.value[key];
    if (typeof value !== "string") throw invalidAt(this.at(key));
    return value;
  }

  nullableString(key: string): string | null {
    return this.value[key] === null ? null : this.string(key);
  }

  nullableOneOf<T extends string>(key: string, allowed: readonly T[]): T | null {
    return this.value[key] === null ? null : this.oneOf(key, allowed);
  }

  /** A UTC ISO-8601 timestamp ending in `Z`, as events carry them (`2026-11-29T18:38:21.123Z`). */
  timestamp(key: string): string {
    const value = this.string(key);
    if (!utcTimestamp.test(value)) throw invalidAt(this.at(key));
    return value;
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T {
    const value = this.string(key);
    if (!(allowed as readonly string[]).includes(value)) throw invalidAt(this.at(key));
    return value as T;
  }

  boolean(key: string): boolean {
    const value = this.value[key];
    if (typeof value !== "boolean") throw invalidAt(this.at(key));
    return value;
  }

  nullableBoolean(key: string): boolean | null {
    return this.value[key] === null ? null : this.boolean(key);
  }

  /** An integer in JavaScript's safe range (counts, durations, ordinals, exit codes). */
  integer(key: string): number {
    return safeInteger(this.value[key], this.at(key));
  }

  nullableInteger(key: string): number | null {
    return this.value[key] === null ? null : this.integer(key);
  }

  /** An integer of any size, kept exactly. */
  bigInteger(key: string): bigint {
    const exact = integerLiteral(this.value[key]);
    if (exact === null) throw invalidAt(this.at(key));
    return exact;
  }

  /** Any finite JSON number, integer or not. */
  number(key: string): number {
    const value = this.value[key];
    const parsed = isLosslessNumber(value) ? Number(value.value) : Number.NaN;
    if (!Number.isFinite(parsed)) throw invalidAt(this.at(key));
    return parsed;
  }

  integerList(key: string): number[] {
    return this.list(key).map((item, index) => safeInteger(item, childPath(this.at(key), index)));
  }

  stringList(key: string): string[] {
    return this.list(key).map((item, index) => {
      if (typeof item !== "string") throw invalidAt(childPath(this.at(key), index));
      return item;
    });
  }

  /** An object whose keys the caller checks: its entries, in file order. */
  entries(key: string): [string, unknown][] {
    const value = this.value[key];
    if (!isJsonObject(value)) throw invalidAt(this.at(key));
    return Object.entries(value);
  }

  /** The items of a list, for callers that decide each item's shape. */
  items(key: string): unknown[] {
    return this.list(key);
  }

  objectList(key: string, keys: readonly string[]): StrictObject[] {
    return this.list(key).map((item, index) => StrictObject.of(item, childPath(this.at(key), index), keys));
  }

  private list(key: string): unknown[] {
    const value = this.value[key];
    if (!Array.isArray(value)) throw invalidAt(this.at(key));
    return value;
  }
}

/** The plain accessors as field readers. */
export const FIELD = {
  string: (object: StrictObject, key: string) => object.string(key),
  nullableString: (object: StrictObject, key: string) => object.nullableString(key),
  timestamp: (object: StrictObject, key: string) => object.timestamp(key),
  boolean: (object: StrictObject, key: string) => object.boolean(key),
  integer: (object: StrictObject, key: string) => object.integer(key),
  nullableInteger: (object: StrictObject, key: string) => object.nullableInteger(key),
  integerList: (object: StrictObject, key: string) => object.integerList(key),
  oneOf:
    <T extends string>(allowed: readonly T[]): FieldReader<T> =>
    (object, key) =>
      object.oneOf(key, allowed),
  nullableOneOf:
    <T extends string>(allowed: readonly T[]): FieldReader<T | null> =>
    (object, key) =>
      object.nullableOneOf(key, allowed),
} as const;
