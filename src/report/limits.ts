/**
 * What `inspect` will read. A real report is a few kilobytes (each evidence row is about 150
 * bytes); the limits keep reading and checking a hostile file short and bounded in memory.
 */
export const REPORT_LIMITS = {
  /** Bytes of a report file (16 MiB). */
  maxBytes: 16 * 1024 * 1024,
  /**
   * Evaluations of a seeded-probability window whose selections are recomputed (one SHA-256
   * each). A report that claims more is refused as invalid instead of being enumerated: a real
   * run records one operation event per evaluation, and no agent run comes near this many.
   */
  maxVerifiedEvaluations: 100_000,
} as const;
