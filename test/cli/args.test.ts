import { describe, expect, it } from "vitest";
import { type ArgsSpec, parseCommandArgs } from "../../src/cli/args.js";

const SPEC: ArgsSpec = {
  options: { "output-dir": { type: "string", needs: "a path" }, quiet: { type: "boolean" } },
  positionals: { min: 1, max: 2 },
};

describe("command arguments", () => {
  it("takes positionals and options in any order, both spellings of a value, the last value winning", () => {
    expect(parseCommandArgs(["a", "--output-dir", "x", "b", "--quiet", "--output-dir=y"], SPEC)).toEqual({
      positionals: ["a", "b"],
      values: { "output-dir": "y", quiet: true },
    });
    expect(parseCommandArgs(["-", "--", "--quiet"], SPEC)).toEqual({
      positionals: ["-", "--quiet"],
      values: {},
    });
  });

  it("names the first problem in argument order, quoting the argument as written", () => {
    const problem = (args: string[]) => parseCommandArgs(args, SPEC);
    expect(problem(["a", "--fast=1", "--nope"])).toEqual({
      kind: "message",
      text: "unknown option '--fast=1'",
    });
    expect(problem(["-xq", "a"])).toEqual({ kind: "message", text: "unknown option '-xq'" });
    expect(problem(["a", "--output-dir"])).toEqual({ kind: "message", text: "--output-dir needs a path" });
    expect(problem(["a", "--output-dir="])).toEqual({ kind: "message", text: "--output-dir needs a path" });
    expect(problem(["a", "--quiet=no"])).toEqual({ kind: "message", text: "--quiet takes no value" });
    expect(problem(["a", "b", "c"])).toEqual({ kind: "message", text: "unexpected argument 'c'" });
    expect(problem(["--quiet"])).toEqual({ kind: "missing" });
    expect(problem(["a", "--constructor"])).toEqual({
      kind: "message",
      text: "unknown option '--constructor'",
    });
  });
});
