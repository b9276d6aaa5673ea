import type { Script, ScriptAnswer, ScriptRule } from "./script-schema.js";
import type { Turn } from "./turn.js";

/** A tool call of an answer: `arguments` is the JSON text, `input` the same value parsed. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** The answer to one request, in no API's shape yet. */
export interface Reply {
  /** 1-based number of the model request this server answered: every id is derived from it. */
  readonly number: number;
  readonly model: string;
  /** Null when the answer is tool calls only. */
  readonly text: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The answer without a script, or `Echo: <last user message>`. */
export function echoAnswer(turn: Turn): ScriptAnswer {
  return { text: `Echo: ${turn.userText}` };
}

/** The first rule whose every condition holds for request `number`; null when no rule matches. */
export function matchingRule(script: Script, turn: Turn, number: number): ScriptRule | null {
  for (const rule of script) {
    const when = rule.when ?? {};
    if (when.user_contains !== undefined && !turn.userText.includes(when.user_contains)) continue;
    if (when.user_matches !== undefined && !when.user_matches.test(turn.userText)) continue;
    if (when.tool_result !== undefined && when.tool_result !== turn.toolResult) continue;
    if (when.call !== undefined && !when.call.includes(number)) continue;
    return rule;
  }
  return null;
}

/** Splits text into word-sized pieces (a word and the spaces after it) that join back to it. */
export function textPieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

const ARGUMENT_PIECE = 8;

/** Splits a tool call's JSON arguments into pieces of a few characters, as models stream them. */
export function argumentPieces(json: string): string[] {
  const chars = Array.from(json);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += ARGUMENT_PIECE)
    pieces.push(chars.slice(i, i + ARGUMENT_PIECE).join(""));
  return pieces;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Builds the reply to request `number`; token counts are word and piece counts (deterministic). */
export function buildReply(turn: Turn, answer: ScriptAnswer, number: number): Reply {
  const toolCalls = (answer.tool_calls ?? []).map((call) => {
    const input = call.arguments ?? {};
    return { name: call.name, arguments: JSON.stringify(input), input };
  });
  const text = answer.text ?? null;
  const outputTokens =
    (text === null ? 0 : textPieces(text).length) +
    toolCalls.reduce((sum, call) => sum + 1 + argumentPieces(call.arguments).length, 0);
  return {
    number,
    model: turn.model,
    text,
    toolCalls,
    inputTokens: wordCount(turn.userText),
    outputTokens,
  };
}
