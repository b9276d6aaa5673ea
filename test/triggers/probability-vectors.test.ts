import { describe, expect, it } from "vitest";
import { probabilityThreshold, selectedOccurrences } from "../../src/triggers/probability-selector.js";

/*
 * Vectors computed independently of this code base with coreutils and bc:
 *
 *   vec() { seed=$1; m=$2; n=$3; sel=""
 *     thr=$(echo "($m * 2^256) / 1000000" | BC_LINE_LENGTH=0 bc)
 *     for k in $(seq 1 $n); do
 *       h=$(printf 'agentchaos-probability-v1:%s:%s' $seed $k | sha256sum | cut -d' ' -f1 | tr a-f A-F)
 *       r=$(echo "ibase=16; $h" | BC_LINE_LENGTH=0 bc)
 *       [ "$(echo "$r < $thr" | bc)" = 1 ] && sel="$sel $k"
 *     done; echo "$sel"; }
 *
 *   vec 10 500000 10                      ->  2 4 8 9 10   (the known answer in docs/triggers.md)
 *   vec 7 250000 12                       ->  2 4 8
 *   vec 18446744073709551615 333333 10    ->  1 3 6 8
 *   vec 0 900000 8                        ->  1 2 3 4 5 6 8
 *   vec 12345 1 10                        ->  (none)
 */
describe("seeded probability selector vectors", () => {
  it("seed 10, probability 0.5 selects 2, 4, 8, 9, 10 of 1–10 (and 2, 4 of 1–6)", () => {
    expect(selectedOccurrences(10n, 500_000, 1, 10)).toEqual([2, 4, 8, 9, 10]);
    expect(selectedOccurrences(10n, 500_000, 1, 6)).toEqual([2, 4]);
  });

  it("seed 7, probability 0.25 selects 2, 4, 8 of 1–12", () => {
    expect(selectedOccurrences(7n, 250_000, 1, 12)).toEqual([2, 4, 8]);
  });

  it("the largest seed, probability 0.333333 selects 1, 3, 6, 8 of 1–10", () => {
    expect(selectedOccurrences(18_446_744_073_709_551_615n, 333_333, 1, 10)).toEqual([1, 3, 6, 8]);
  });

  it("seed 0, probability 0.9 selects 1–6 and 8 of 1–8", () => {
    expect(selectedOccurrences(0n, 900_000, 1, 8)).toEqual([1, 2, 3, 4, 5, 6, 8]);
  });

  it("probability 0.000001 selects nothing among the first ten occurrences of seed 12345", () => {
    expect(selectedOccurrences(12_345n, 1, 1, 10)).toEqual([]);
  });

  it("probability 1 selects every occurrence: the threshold is 2^256, above every digest", () => {
    expect(probabilityThreshold(1_000_000)).toBe(1n << 256n);
    expect(selectedOccurrences(99n, 1_000_000, 3, 9)).toEqual([3, 4, 5, 6, 7, 8, 9]);
  });

  it("only the window's part is evaluated: a sub-range gives the matching subset", () => {
    expect(selectedOccurrences(10n, 500_000, 5, 9)).toEqual([8, 9]);
    expect(selectedOccurrences(10n, 500_000, 4, 4)).toEqual([4]);
    expect(selectedOccurrences(10n, 500_000, 3, 3)).toEqual([]);
  });
});
