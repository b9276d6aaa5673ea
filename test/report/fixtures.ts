import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "lossless-json";

export const FIXTURES = join(import.meta.dirname, "..", "fixtures", "reports");
export const VALID = join(FIXTURES, "valid");
export const INVALID = join(FIXTURES, "invalid");

/** File names (without `.json`) of the fixtures in one folder. */
export function fixtureNames(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .sort();
}

/** The parsed JSON tree of a fixture, numbers kept as lossless numbers (as the reader sees it). */
export function fixtureDocument(folder: string, name: string): unknown {
  return parse(readFileSync(join(folder, `${name}.json`), "utf8"));
}

/** A fixture as a plain mutable object with ordinary numbers (for building variants). */
export function fixtureObject(folder: string, name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(folder, `${name}.json`), "utf8")) as Record<string, unknown>;
}
