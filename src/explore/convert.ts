/**
 * The scenario explore starts from: schema 2, faults removed. A schema-1 scenario is converted
 * in memory (README, "Explore"): its one dependency becomes the http dependency `api`, its
 * `proxy_url_env` that dependency's `url_env`, its workload env values are escaped so that
 * schema 2's `${NAME}` and `$$` leave them as written; recovery and checks take schema 2's
 * defaults (`recovery: chain`, `retry_after` enforced).
 */

import type { AnyScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import type { ScenarioV2 } from "../scenario/types-v2.js";
import { DEFAULT_CHECKS } from "../scenario/v2/checks.js";
import { ExploreError } from "./errors.js";

/** The name a schema-1 scenario's dependency gets in schema 2. */
export const CONVERTED_DEPENDENCY = "api";

const PORT = "{port}";

/** `$` written twice: schema 2 reads `$$` as one literal `$`, so every value stays as written. */
function escapeDollars(value: string): string {
  return value.replace(/\$/g, () => "$$");
}

function fromSchema1(scenario: Scenario): ScenarioV2 {
  const { dependency, workload } = scenario;
  const start = dependency.start;
  const portTexts = [dependency.baseUrl, ...(start?.command ?? []), ...Object.values(start?.env ?? {})];
  if (portTexts.some((text) => text.includes(PORT))) {
    throw new ExploreError(
      "EXPLORE_NOT_CONVERTIBLE",
      "this schema-1 scenario writes {port} in its dependency, which schema 2 reads as a port placeholder; convert it to schema 2 by hand",
    );
  }
  let urlEnv = workload.proxyUrlEnv;
  if (urlEnv === "AGENTCHAOS_PROXY_URL") urlEnv = null;
  if (urlEnv?.startsWith("AGENTCHAOS_")) {
    throw new ExploreError(
      "EXPLORE_NOT_CONVERTIBLE",
      `workload.proxy_url_env ${urlEnv} starts with AGENTCHAOS_, which schema 2 reserves; convert the scenario to schema 2 by hand`,
    );
  }
  return {
    schemaVersion: 2,
    name: scenario.name,
    dependencies: [
      {
        name: CONVERTED_DEPENDENCY,
        type: "http",
        baseUrl: dependency.baseUrl,
        start: dependency.start,
        urlEnv,
        protocol: "http",
        ignoreJsonFields: [],
        usesPortPlaceholder: false,
      },
    ],
    workload: {
      name: workload.name,
      command: workload.command,
      cwd: workload.cwd,
      env: Object.fromEntries(
        Object.entries(workload.env).map(([key, value]) => [key, escapeDollars(value)]),
      ),
    },
    faults: [],
    recovery: "chain",
    checks: DEFAULT_CHECKS,
    success: scenario.success,
    timeoutSeconds: scenario.timeoutSeconds,
    sourcePath: scenario.sourcePath,
  };
}

/** The scenario as schema 2 without its faults (the baseline every experiment adds to). */
export function baseScenario(scenario: AnyScenario): ScenarioV2 {
  if (scenario.schemaVersion === 1) return fromSchema1(scenario);
  return { ...scenario, faults: [] };
}
