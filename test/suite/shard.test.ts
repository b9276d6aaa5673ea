import { describe, expect, it } from "vitest";
import { parseShard, shardSlice } from "../../src/suite/shard.js";

describe("shards", () => {
  it("every scenario is in exactly one shard, in order, for N = 1..7 and 0..50 scenarios", () => {
    for (let total = 1; total <= 7; total++) {
      for (let count = 0; count <= 50; count++) {
        const items = Array.from({ length: count }, (_, index) => `s${index}`);
        const slices = Array.from({ length: total }, (_, index) =>
          shardSlice(items, { index: index + 1, total }),
        );
        expect(slices.flat(), `${count} in ${total}`).toEqual(items);
        const sizes = slices.map((slice) => slice.length);
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
        for (let index = 1; index < sizes.length; index++) {
          expect(sizes[index]).toBeLessThanOrEqual(sizes[index - 1] as number);
        }
      }
    }
  });

  it("parses I/N with 1 <= I <= N and rejects everything else", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, total: 3 });
    expect(parseShard("1/1")).toEqual({ index: 1, total: 1 });
    for (const bad of ["0/3", "4/3", "1/0", "a/b", "1", "1/2/3", "-1/2", "1.5/2", ""]) {
      expect(parseShard(bad), bad).toHaveProperty("problem");
    }
  });
});
