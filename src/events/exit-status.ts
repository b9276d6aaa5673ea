import { constants } from "node:os";

/**
 * How a process ended, in words, from a recorded exit code: `exit code 1`, or `killed by SIGTERM`
 * for the negative signal number that the runner records when a signal ended the process, or
 * `killed by signal 77` for a number this platform has no name for.
 */
export function describeExitCode(exitCode: number): string {
  if (exitCode >= 0) return `exit code ${exitCode}`;
  const name = Object.entries(constants.signals).find(([, number]) => number === -exitCode)?.[0];
  return `killed by ${name ?? `signal ${-exitCode}`}`;
}
