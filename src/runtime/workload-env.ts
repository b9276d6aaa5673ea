import type { Scenario } from "../scenario/types.js";

/** The URL variable of one http dependency: `AGENTCHAOS_<NAME>_URL`. */
export function dependencyUrlVariable(name: string): string {
  return `AGENTCHAOS_${name.toUpperCase()}_URL`;
}

/**
 * The variables Agent Chaos gives a workload (docs/scenario.md, the workload's variables): the run
 * id, each http dependency's proxy URL under `AGENTCHAOS_<NAME>_URL` (unless the scenario's
 * dependencies are unnamed) and its `url_env`, `AGENTCHAOS_PROXY_URL` when there is exactly one
 * http dependency, and what the MCP hosts add.
 */
export function runVariables(
  scenario: Scenario,
  runId: string,
  proxyUrls: ReadonlyMap<string, string>,
  mcpVariables: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const variables: Record<string, string> = { AGENTCHAOS_RUN_ID: runId };
  const named = scenario.dependencyNaming !== "unnamed";
  const http = scenario.dependencies.filter((dependency) => dependency.type === "http");
  for (const dependency of http) {
    const url = proxyUrls.get(dependency.name);
    if (url === undefined) continue;
    if (named) variables[dependencyUrlVariable(dependency.name)] = url;
    if (dependency.urlEnv !== null) variables[dependency.urlEnv] = url;
  }
  const only = http.length === 1 ? http[0] : undefined;
  const onlyUrl = only === undefined ? undefined : proxyUrls.get(only.name);
  if (onlyUrl !== undefined) variables.AGENTCHAOS_PROXY_URL = onlyUrl;
  return { ...variables, ...mcpVariables };
}

/**
 * `${NAME}` in a workload env value becomes the run variable NAME; any other `${...}` stays as
 * written; `$$` is a literal `$`. One left-to-right pass, so a substituted value is never
 * expanded again.
 */
export function interpolate(value: string, variables: Readonly<Record<string, string>>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string | undefined) => {
    if (name === undefined) return "$";
    return Object.hasOwn(variables, name) ? (variables[name] as string) : match;
  });
}

/** The workload's own `env` with run variables interpolated. */
export function interpolateEnv(
  env: Readonly<Record<string, string>>,
  variables: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, interpolate(value, variables)]));
}
