import { describe, expect, it } from "vitest";
import { decimalPlaces, parseWrittenDecimal, toMillionths } from "../../src/scenario/written-decimal.js";

describe("written decimals", () => {
  it.each([
    ["0.5", 1, 500_000n],
    ["1", 0, 1_000_000n],
    ["1.0", 1, 1_000_000n],
    ["0.000001", 6, 1n],
    ["0.1234567", 7, 123_456n],
    ["0.5000000", 7, 500_000n],
    [".25", 2, 250_000n],
    ["2.", 0, 2_000_000n],
    ["5e-1", 1, 500_000n],
    ["1.5E+2", 0, 150_000_000n],
    ["+0.3", 1, 300_000n],
    ["-0.3", 1, -300_000n],
  ])("reads %s as written: %d decimal places, %d millionths", (text, places, millionths) => {
    const decimal = parseWrittenDecimal(text);
    expect(decimal).not.toBeNull();
    if (decimal === null) return;
    expect(decimalPlaces(decimal)).toBe(places);
    expect(toMillionths(decimal)).toBe(millionths);
  });

  it("keeps 0.000249 exact, where flooring a float multiply gives 248", () => {
    const decimal = parseWrittenDecimal("0.000249");
    expect(decimal === null ? null : toMillionths(decimal)).toBe(249n);
    expect(Math.floor(0.000249 * 1_000_000)).toBe(248);
  });

  it("clamps huge values far above any bound", () => {
    const decimal = parseWrittenDecimal("1e400");
    expect(decimal === null ? null : toMillionths(decimal) > 1_000_000n).toBe(true);
  });

  it.each([".", "", "e5", "0x10", ".nan", "1_000", "1.2.3", "abc"])("refuses %s", (text) => {
    expect(parseWrittenDecimal(text)).toBeNull();
  });
});
