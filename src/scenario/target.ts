import type { Target } from "./types.js";

/**
 * Compiles a target into a predicate over (method, path). `*` matches any run of
 * characters, `/` included; everything else is literal and case-sensitive. The method is
 * compared case-insensitively. The query string never takes part (callers pass the path only).
 */
export function compileTarget(target: Target): (method: string, path: string) => boolean {
  const pattern = new RegExp(
    `^${target.path
      .split("*")
      .map((part) => part.replace(/[\\^$.|?+()[\]{}]/g, "\\$&"))
      .join(".*")}$`,
    "s",
  );
  const method = target.method?.toUpperCase() ?? null;
  return (requestMethod, path) =>
    (method === null || requestMethod.toUpperCase() === method) && pattern.test(path);
}
