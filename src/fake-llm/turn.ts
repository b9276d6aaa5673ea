/** What the fake model reads from a request, whatever the API: the only inputs of its answer. */
export interface Turn {
  /** The request's `model`, echoed in the answer (`fake-model` when absent). */
  readonly model: string;
  /** The text of the last user message that has text; "" when there is none. */
  readonly userText: string;
  /** Whether the request ends with tool results, i.e. it answers the model's tool calls. */
  readonly toolResult: boolean;
  /** Whether the client asked for a server-sent event stream. */
  readonly stream: boolean;
}

export type JsonObject = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function modelOf(body: JsonObject): string {
  return typeof body.model === "string" && body.model !== "" ? body.model : "fake-model";
}

/**
 * The text of a message's `content`: the string itself, or the `text` of its parts whose `type`
 * is one of `textTypes`, joined by newlines. Null when the content holds no text at all.
 */
export function contentText(content: unknown, textTypes: readonly string[]): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content
    .filter(
      (part) => isObject(part) && textTypes.includes(String(part.type)) && typeof part.text === "string",
    )
    .map((part) => (part as { text: string }).text);
  return texts.length === 0 ? null : texts.join("\n");
}

/** The text of the last message in `messages` for which `textOf` finds any; "" when none does. */
export function lastText(
  messages: readonly unknown[],
  textOf: (message: JsonObject) => string | null,
): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    const text = isObject(message) ? textOf(message) : null;
    if (text !== null) return text;
  }
  return "";
}

/** The turn of a request whose conversation is a `messages` list (Chat Completions, Anthropic Messages). */
export function messagesTurn(body: JsonObject, messages: readonly unknown[], toolResult: boolean): Turn {
  const userText = lastText(messages, (m) => (m.role === "user" ? contentText(m.content, ["text"]) : null));
  return { model: modelOf(body), userText, toolResult, stream: body.stream === true };
}
