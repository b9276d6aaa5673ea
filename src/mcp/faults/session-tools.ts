import { isJsonObject, parseJson } from "../../support/json-text.js";
/** What one `mcp_tools_changed` injection changes in its session (docs/mcp.md). */
export interface ToolsChange {
  /** Tools `tools/list` omits from then on; calls to them are answered -32602. */
  readonly remove: readonly string[];
  /** The property `tool`'s `inputSchema` gains as required, or null. */
  readonly require: string | null;
  /** The tool the targeted request called, or null when it was no `tools/call`. */
  readonly tool: string | null;
}

/** The notification sent to the agent before the targeted request's answer. */
export const LIST_CHANGED_NOTIFICATION = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';

/** The JSON-RPC error code of a call to a removed tool: invalid params (an unknown tool). */
export const REMOVED_TOOL_CODE = -32602;

/** The answer to a call with id `rawId` of the removed tool `name`. */
export function removedToolAnswer(rawId: string, name: string): string {
  const error = { code: REMOVED_TOOL_CODE, message: `Unknown tool: ${name}` };
  return `{"jsonrpc":"2.0","id":${rawId},"error":${JSON.stringify(error)}}`;
}

/**
 * The tool list of one MCP session as `mcp_tools_changed` left it: which tools are gone and
 * which properties the remaining ones now require. Empty (inactive) until the first change.
 */
export class SessionTools {
  readonly #removed = new Set<string>();
  readonly #required = new Map<string, Set<string>>();
  #active = false;

  get active(): boolean {
    return this.#active;
  }

  apply(change: ToolsChange): void {
    this.#active = true;
    for (const name of change.remove) this.#removed.add(name);
    if (change.require !== null && change.tool !== null) {
      const required = this.#required.get(change.tool) ?? new Set<string>();
      required.add(change.require);
      this.#required.set(change.tool, required);
    }
  }

  /** Whether a request (method and target name) calls a removed tool. */
  removes(method: string, name: string): boolean {
    return method === "tools/call" && this.#removed.has(name);
  }

  /** Whether the answer to a request of `method` is rewritten. */
  rewrites(method: string): boolean {
    return this.#active && method === "tools/list";
  }

  /**
   * A `tools/list` answer as the changed session gives it: removed tools left out, required
   * properties added. Null when `text` holds no list (it passes unchanged).
   */
  rewriteList(text: string): string | null {
    const parsed = parseJson(text);
    if (!isJsonObject(parsed) || !isJsonObject(parsed.result) || !Array.isArray(parsed.result.tools))
      return null;
    const tools = (parsed.result.tools as unknown[]).filter(
      (tool) => !(isJsonObject(tool) && typeof tool.name === "string" && this.#removed.has(tool.name)),
    );
    for (const tool of tools) {
      if (!isJsonObject(tool) || typeof tool.name !== "string") continue;
      const required = this.#required.get(tool.name);
      if (required !== undefined) tool.inputSchema = requiring(tool.inputSchema, required);
    }
    parsed.result.tools = tools;
    return JSON.stringify(parsed);
  }
}

/** An input schema that also requires `names` (each a string property unless it has one). */
function requiring(schema: unknown, names: ReadonlySet<string>): Record<string, unknown> {
  const next: Record<string, unknown> = isJsonObject(schema) ? { ...schema } : { type: "object" };
  const properties = isJsonObject(next.properties) ? { ...next.properties } : {};
  const required = Array.isArray(next.required) ? [...next.required] : [];
  for (const name of names) {
    if (!(name in properties)) {
      properties[name] = { type: "string", description: "Required since the tool list changed" };
    }
    if (!required.includes(name)) required.push(name);
  }
  next.properties = properties;
  next.required = required;
  return next;
}
