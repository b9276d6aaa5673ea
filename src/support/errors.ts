/** Base of every typed error Agent Chaos throws: a stable `code`, the original `cause` kept. */
export class AgentChaosError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}
