/** A safe label for an unexpected error: its code when it has a constant-like one, else its class. */
export function errorLabel(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && /^[A-Z0-9_]+$/.test(code)) return code;
  return error instanceof Error ? error.constructor.name : "unknown error";
}
