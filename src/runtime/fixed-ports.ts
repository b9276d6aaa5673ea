/**
 * The fixed ports a scenario names (docs/suites.md): the ports of `base_url`s without `{port}` —
 * schema 1's `dependency`, schema 2's `dependencies`. Read from the scenario file's data, so
 * the rule follows the file format, not the runtime's types. A URL without an explicit port
 * names its scheme's default port.
 */
import type { AnyScenario } from "../scenario/parse.js";

/** The port a URL names: its own, or its scheme's default (http, https; else null). */
export function portOfUrl(url: URL): number | null {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "http:" ? 80 : url.protocol === "https:" ? 443 : null;
}

function portOf(baseUrl: unknown): number | null {
  if (typeof baseUrl !== "string" || baseUrl.includes("{port}") || !URL.canParse(baseUrl)) return null;
  return portOfUrl(new URL(baseUrl));
}

function baseUrlOf(dependency: unknown): unknown {
  return typeof dependency === "object" && dependency !== null
    ? (dependency as Record<string, unknown>).base_url
    : undefined;
}

/** The fixed ports of a parsed scenario document, sorted, without repeats. */
export function fixedPorts(document: unknown): number[] {
  if (typeof document !== "object" || document === null) return [];
  const data = document as Record<string, unknown>;
  const urls: unknown[] = [baseUrlOf(data.dependency)];
  const dependencies = data.dependencies;
  if (typeof dependencies === "object" && dependencies !== null && !Array.isArray(dependencies)) {
    for (const dependency of Object.values(dependencies)) urls.push(baseUrlOf(dependency));
  }
  const ports = new Set<number>();
  for (const url of urls) {
    const port = portOf(url);
    if (port !== null) ports.add(port);
  }
  return [...ports].sort((a, b) => a - b);
}

/** The fixed ports of a loaded scenario, read as `fixedPorts` reads its file. */
export function scenarioFixedPorts(scenario: AnyScenario): number[] {
  const dependencies: Record<string, unknown> = {};
  for (const dependency of scenario.dependencies) {
    if (dependency.type === "http") dependencies[dependency.name] = { base_url: dependency.baseUrl };
  }
  return fixedPorts({ dependencies });
}
