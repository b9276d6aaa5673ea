/**
 * The scenario explore starts from: schema 2, faults removed. A schema-1 scenario goes through
 * the same upgrade as every schema-1 run (see docs/explore.md): its one dependency becomes the
 * http dependency `api`, its `proxy_url_env` that dependency's `url_env`, its workload env values
 * are kept as written; recovery and checks take schema 2's defaults (`recovery: chain`,
 * `retry_after` enforced). What schema 2 cannot say is refused.
 */

import { DEFAULT_CHECKS } from "../scenario/checks.js";
import type { LegacyScenario } from "../scenario/legacy/types.js";
import { LEGACY_DEPENDENCY, upgradeScenario } from "../scenario/legacy/upgrade.js";
import type { AnyScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import { ExploreError } from "./errors.js";

/** The name a schema-1 scenario's dependency gets in schema 2. */
export const CONVERTED_DEPENDENCY = LEGACY_DEPENDENCY;

const PORT = "{port}";

function fromSchema1(scenario: LegacyScenario): Scenario {
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
  const { legacy: _legacy, dependencyNaming: _unnamed, ...upgraded } = upgradeScenario(scenario);
  return {
    ...upgraded,
    dependencies: upgraded.dependencies.map((entry) => {
      if (entry.type !== "http" || entry.name !== LEGACY_DEPENDENCY) return entry;
      // Explore runs it as schema 2: a workload closing an event stream succeeds there.
      const { countStreamEvents: _schema1Streams, ...schema2 } = entry;
      return { ...schema2, urlEnv };
    }),
    faults: [],
    recovery: "chain",
    checks: DEFAULT_CHECKS,
  };
}

/** The scenario as schema 2 without its faults (the baseline every experiment adds to). */
export function baseScenario(scenario: AnyScenario): Scenario {
  if (scenario.legacy !== undefined) return fromSchema1(scenario.legacy.source);
  return { ...scenario, faults: [] };
}
