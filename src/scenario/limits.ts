/**
 * Limits on a scenario file, checked before any work that could grow faster than the file:
 * below them, loading and validating take time linear in the file's size.
 */
export const SCENARIO_LIMITS = {
  /** Bytes of the file (1 MiB). Real scenarios are a few hundred bytes. */
  maxBytes: 1024 * 1024,
  /** Collections (mappings and lists) nested inside each other. The schema itself needs 4. */
  maxDepth: 64,
  /** Mapping entries plus list items, in the whole document. */
  maxEntries: 10_000,
  /** Alias expansions (a YAML "billion laughs" bomb is stopped here). */
  maxAliasCount: 100,
} as const;
