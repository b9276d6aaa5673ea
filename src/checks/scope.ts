/**
 * What a check looks at (see docs/checks.md): every check may be limited to some dependencies;
 * `duplicate_writes` also to some methods and paths. The checks' hooks use these predicates.
 *
 * Model calls are not writes: by their API's contract a request to a model creates nothing that a
 * repeat would duplicate. Unless `paths` is given, `duplicate_writes` leaves out every POST whose
 * path ends with `/chat/completions` (OpenAI, Azure OpenAI and compatible servers), or with
 * `/v1/completions`, `/v1/responses`, `/v1/messages`, `/v1/messages/count_tokens` or
 * `/v1/embeddings` (OpenAI, Anthropic and compatible servers). The `/v1` segment is required for
 * those, so that an application's own `POST /surveys/1/responses` still counts as a write.
 */
import { compileTarget } from "../scenario/target.js";
import type { ChecksConfig } from "../scenario/types.js";

const MODEL_CALL =
  /(?:\/chat\/completions|\/v1\/(?:completions|responses|messages|messages\/count_tokens|embeddings))$/;

/** Whether an HTTP request is a call to a model API (never a write, by contract). */
export function isModelCall(method: string, path: string): boolean {
  return method.toUpperCase() === "POST" && MODEL_CALL.test(path);
}

/**
 * Whether a check limited to `dependencies` (null: all) looks at this dependency; never at an
 * operation whose dependency is not known (null).
 */
export function coversDependency(
  scope: { readonly dependencies: readonly string[] | null },
  dependency: string | null,
): boolean {
  return dependency !== null && (scope.dependencies === null || scope.dependencies.includes(dependency));
}

/** The operations `duplicate_writes` treats as writes, as a predicate over an observed operation. */
export function writeMatcher(
  config: ChecksConfig["duplicate_writes"],
): (op: {
  readonly dependency: string;
  readonly protocol: string;
  readonly method: string;
  readonly path: string;
}) => boolean {
  const methods = new Set<string>(config.methods);
  const paths =
    config.paths?.map((glob) => compileTarget({ kind: "http", method: null, path: glob })) ?? null;
  return (op) => {
    if (op.protocol !== "http" || !coversDependency(config, op.dependency)) return false;
    if (!methods.has(op.method.toUpperCase())) return false;
    if (paths === null) return !isModelCall(op.method, op.path);
    return paths.some((matches) => matches({ method: op.method, path: op.path }));
  };
}
