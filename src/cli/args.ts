import { parseArgs } from "node:util";

/** One option a command accepts: a string (with what it needs, for the error) or a flag. */
/** A string option may be `repeatable`: every value given is kept, in order, in `ParsedArgs.lists`. */
export type OptionSpec =
  | { readonly type: "string"; readonly needs: string; readonly repeatable?: boolean }
  | { readonly type: "boolean" };

/** What a command accepts: its options and how many positional arguments. */
export interface ArgsSpec {
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly positionals: { readonly min: number; readonly max: number };
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  /** Last value of each string option given; `true` for each flag given. */
  readonly values: Readonly<Record<string, string | true>>;
  /** Every value of each repeatable option given, in argument order (absent when none was given). */
  readonly lists?: Readonly<Record<string, readonly string[]>>;
}

/** A usage problem: `missing` when fewer positionals than required were given. */
export type ArgsProblem = { readonly kind: "missing" } | { readonly kind: "message"; readonly text: string };

/** Whether `--help` appears among the arguments (it wins over every other problem). */
export function asksForHelp(args: readonly string[]): boolean {
  return args.includes("--help");
}

/**
 * Parses a command's arguments with `node:util` `parseArgs` (tokens, non-strict) and checks
 * them against the spec, first problem in argument order winning: an unknown option, a string
 * option without a value, a value given to a flag, one positional too many.
 */
export function parseCommandArgs(args: readonly string[], spec: ArgsSpec): ParsedArgs | ArgsProblem {
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const [name, option] of Object.entries(spec.options)) options[name] = { type: option.type };
  const { tokens } = parseArgs({
    args: [...args],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const positionals: string[] = [];
  const values: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (positionals.length >= spec.positionals.max) {
        return { kind: "message", text: `unexpected argument '${token.value}'` };
      }
      positionals.push(token.value);
      continue;
    }
    const option = Object.hasOwn(spec.options, token.name) ? spec.options[token.name] : undefined;
    if (option === undefined || token.rawName !== `--${token.name}`) {
      return { kind: "message", text: `unknown option '${args[token.index] ?? token.rawName}'` };
    }
    if (option.type === "string") {
      if (token.value === undefined || token.value === "") {
        return { kind: "message", text: `${token.rawName} needs ${option.needs}` };
      }
      values[token.name] = token.value;
      if (option.repeatable === true) lists[token.name] = [...(lists[token.name] ?? []), token.value];
    } else {
      if (token.inlineValue === true) return { kind: "message", text: `${token.rawName} takes no value` };
      values[token.name] = true;
    }
  }
  if (positionals.length < spec.positionals.min) return { kind: "missing" };
  return Object.keys(lists).length === 0 ? { positionals, values } : { positionals, values, lists };
}
