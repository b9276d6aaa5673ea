import * as z from "zod";
import { expecting, mapping, nonEmptyList } from "./fields.js";
import { commandText } from "./runnable.js";
import type { VerifySpec } from "./types.js";

export const DEFAULT_VERIFY_TIMEOUT_SECONDS = 10;
const MAX_VERIFY_TIMEOUT_SECONDS = 600;

const timeoutSeconds = (() => {
  const error = expecting(`a number of seconds from 1 to ${MAX_VERIFY_TIMEOUT_SECONDS}`);
  return z
    .union([z.bigint(), z.number()], { error })
    .refine((value) => value >= 1 && value <= MAX_VERIFY_TIMEOUT_SECONDS, { error })
    .transform((value) => Number(value));
})();

/**
 * The scenario's `verify` key (docs/scenario.md): an argv command run after the workload, with
 * its own time limit. The command runs in the workload's folder with the workload's environment.
 */
export const verifySchema = mapping(
  {
    command: nonEmptyList(
      commandText("a non-empty string"),
      "a list of at least one non-empty string (an argv, run without a shell)",
    ),
    timeout_seconds: timeoutSeconds.optional(),
  },
  "verify",
).transform(
  ({ command, timeout_seconds }): VerifySpec => ({
    command,
    timeoutSeconds: timeout_seconds ?? DEFAULT_VERIFY_TIMEOUT_SECONDS,
  }),
);
