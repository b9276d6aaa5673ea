/**
 * A compact set of operation ids for one long log: 52-bit hashes of the ids in an open-addressing
 * table of doubles (at most about 11 bytes per id), instead of the id strings themselves. `add` can
 * report a false "already present" (two ids with one hash, about one chance in 10^15 per pair),
 * never a false "new": callers treat "present" as "cannot be analysed as a stream" and fall back
 * to the exact batch analysis, so a collision costs time, never correctness.
 */
export class IdSet {
  #slots = new Float64Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `id`; returns false when it (or an id with the same hash) was already there. */
  add(id: string): boolean {
    // At most three quarters full: linear probing stays short, the table small.
    if ((this.#size + 1) * 4 > this.#slots.length * 3) this.#grow();
    const hash = hash52(id);
    const slot = slotOf(this.#slots, hash);
    if (this.#slots[slot] === hash) return false;
    this.#slots[slot] = hash;
    this.#size += 1;
    return true;
  }

  /** Whether `id` (or an id with the same hash) was added. */
  has(id: string): boolean {
    return this.#slots[slotOf(this.#slots, hash52(id))] !== 0;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Float64Array(old.length * 2);
    for (const value of old) if (value !== 0) this.#slots[slotOf(this.#slots, value)] = value;
  }
}

/** The slot holding a non-zero hash, else the free slot it would take (the table has one). */
function slotOf(slots: Float64Array, hash: number): number {
  const mask = slots.length - 1;
  let slot = hash % slots.length;
  while (slots[slot] !== 0 && slots[slot] !== hash) slot = (slot + 1) & mask;
  return slot;
}

/** Two 32-bit FNV-1a variants combined into a non-zero integer below 2^52. */
function hash52(text: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return ((a >>> 0) % 0x100000) * 0x100000000 + (b >>> 0) + 1;
}
