import { describe, expect, it } from "vitest";
import { probabilityMillionths } from "../../src/report/probability.js";

describe("probabilityMillionths", () => {
  it("converts probabilities with up to six decimals exactly, from their decimal digits", () => {
    expect(probabilityMillionths(0.5)).toBe(500000);
    expect(probabilityMillionths(1)).toBe(1000000);
    expect(probabilityMillionths(0.000001)).toBe(1);
    expect(probabilityMillionths(0.123456)).toBe(123456);
    expect(probabilityMillionths(0.29)).toBe(290000);
    expect(probabilityMillionths(0.57)).toBe(570000);
    expect(probabilityMillionths(0.999999)).toBe(999999);
  });

  it("refuses more than six decimals and values outside (0, 1]", () => {
    for (const value of [0.1234567, 1e-7, 0, -0.5, 1.000001, 2, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(probabilityMillionths(value)).toBeNull();
    }
  });
});
