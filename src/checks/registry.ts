import type { CheckName } from "../scenario/types.js";
import { cancellationCheck } from "./cancellation.js";
import { duplicateWritesCheck } from "./duplicate-writes.js";
import { failFastCheck } from "./fail-fast.js";
import { retryAfterCheck } from "./retry-after.js";
import { retryStormCheck } from "./retry-storm.js";
import type { CheckDefinition } from "./types.js";

/** Every check by name; also the order of rule 18 (docs/evidence.md) and of the report's `checks`. */
export const CHECKS = {
  retry_after: retryAfterCheck,
  retry_storm: retryStormCheck,
  duplicate_writes: duplicateWritesCheck,
  fail_fast: failFastCheck,
  cancellation: cancellationCheck,
} as const satisfies { readonly [N in CheckName]: CheckDefinition<N> };

export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];
