/** The options of `agentchaos fake-llm`. */
export interface FakeLlmOptions {
  readonly port: number;
  readonly host: string;
  readonly script: string | null;
  readonly tokenDelayMs: number;
  readonly help: boolean;
}

export const FAKE_LLM_USAGE =
  "agentchaos fake-llm [--port N] [--host 127.0.0.1] [--script FILE] [--token-delay-ms N]";

const MAX_DELAY_MS = 60_000;

function integerIn(value: string, max: number): number | null {
  return /^\d{1,6}$/.test(value) && Number(value) <= max ? Number(value) : null;
}

/** Parses the arguments after `fake-llm`; a string is the one-line reason they are wrong. */
export function parseFakeLlmArgs(args: readonly string[]): FakeLlmOptions | string {
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--help" || arg === "-h")
      return { port: 0, host: "", script: null, tokenDelayMs: 0, help: true };
    const match = /^--(port|host|script|token-delay-ms)(?:=(.*))?$/s.exec(arg);
    if (match === null) {
      return arg.startsWith("-") ? `unknown option '${arg}'` : `unexpected argument '${arg}'`;
    }
    const name = match[1] as string;
    const value = match[2] ?? args[++i];
    if (value === undefined || value === "") return `--${name} needs a value`;
    values[name] = value;
  }
  const port = integerIn(values.port ?? "0", 65_535);
  if (port === null) return "--port must be an integer from 0 to 65535";
  const tokenDelayMs = integerIn(values["token-delay-ms"] ?? "0", MAX_DELAY_MS);
  if (tokenDelayMs === null) return `--token-delay-ms must be an integer from 0 to ${MAX_DELAY_MS}`;
  return { port, host: values.host ?? "127.0.0.1", script: values.script ?? null, tokenDelayMs, help: false };
}
