/** `agentchaos mcp-shim --dependency NAME --channel PATH --secret HEX`, all three required. */
export interface ShimArgs {
  readonly dependency: string;
  readonly channel: string;
  readonly secret: string;
}

const OPTIONS = ["dependency", "channel", "secret"] as const;

/** Parses the shim's arguments; a string is the one-line problem (exit 2). */
export function parseShimArgs(args: readonly string[]): ShimArgs | string {
  const values: Partial<Record<(typeof OPTIONS)[number], string>> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const name = OPTIONS.find((option) => arg === `--${option}` || arg.startsWith(`--${option}=`));
    if (name === undefined)
      return arg.startsWith("-") ? `unknown option '${arg}'` : `unexpected argument '${arg}'`;
    const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : args[++i];
    if (value === undefined || value === "") return `--${name} needs a value`;
    if (values[name] !== undefined) return `--${name} given twice`;
    values[name] = value;
  }
  const missing = OPTIONS.find((option) => values[option] === undefined);
  if (missing !== undefined) return `missing --${missing}`;
  return values as ShimArgs;
}
