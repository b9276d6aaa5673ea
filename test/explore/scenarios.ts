/** Small scenario files for explore tests, built on the fixture programs. */
import { join } from "node:path";
import { PROGRAMS, writeScenario, yamlList } from "../helpers/scenario-files.js";

function node(program: string, ...args: string[]): string {
  return yamlList([process.execPath, join(PROGRAMS, program), ...args]);
}

/** One managed `api` dependency on `{port}` (the fixture server answers 200 everywhere). */
const API = `dependencies:
  api:
    type: http
    base_url: http://127.0.0.1:{port}
    start:
      command: ${node("http-ok.mjs", "--port", "{port}")}
      readiness: {path: /health}
`;

export interface AgentOptions {
  readonly paths?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutSeconds?: number;
  /** Another workload program (with its arguments) instead of the explore agent. */
  readonly program?: readonly [string, ...string[]];
}

/** A schema-2 scenario: the explore agent GETs `paths` (default `/a`, `/b`) through the `api` dependency. */
export function agentScenario(dir: string, file: string, options: AgentOptions = {}): Promise<string> {
  const command =
    options.program === undefined
      ? node("explore-agent.mjs", ...(options.paths ?? ["/a", "/b"]))
      : node(...options.program);
  const env = Object.entries(options.env ?? {})
    .map(([key, value]) => `    ${key}: ${JSON.stringify(value)}\n`)
    .join("");
  return writeScenario(
    dir,
    file,
    `schema_version: 2\nname: ${file}\n${API}workload:\n  name: agent\n  command: ${command}\n${env === "" ? "" : `  env:\n${env}`}success:\n  exit_code: 0\ntimeout_seconds: ${options.timeoutSeconds ?? 20}\n`,
  );
}

/** A menu file in `dir`. */
export function menuFile(dir: string, file: string, text: string): Promise<string> {
  return writeScenario(dir, file, text);
}
