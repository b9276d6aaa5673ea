import { describe, expect, it } from "vitest";
import { uuid } from "../../src/events/field-checks.js";
import { UuidSource } from "../../src/events/uuid-source.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("UuidSource", () => {
  it("gives well-formed version-4 UUIDs, all different, that the strict reader accepts", () => {
    const ids = new UuidSource();
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const id = ids.next();
      expect(V4.test(id) && uuid.test(id), id).toBe(true);
      seen.add(id);
    }
    expect(seen.size).toBe(100_000);
  });

  it("gives two sources different ids", () => {
    const a = new UuidSource();
    const b = new UuidSource();
    const first = new Set(Array.from({ length: 1000 }, () => a.next()));
    for (let i = 0; i < 1000; i++) expect(first.has(b.next())).toBe(false);
  });
});
