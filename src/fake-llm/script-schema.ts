import * as z from "zod";
import { expecting, mapping, nonEmptyList, nonEmptyString } from "../scenario/fields.js";

/**
 * A fake-llm script: a list of rules. Each request is answered by the first rule whose every
 * `when` condition holds (a rule without `when` matches every request), with its `answer` or its
 * `error`, after its `latency_ms`.
 */

/** A whole number in `[min, max]` (scripts are read without big integers: YAML numbers are plain numbers). */
function whole(expected: string, min: number, max: number) {
  const error = expecting(expected);
  return z
    .number({ error })
    .refine((value) => Number.isInteger(value) && value >= min && value <= max, { error });
}

const positiveInteger = whole("a positive integer", 1, Number.MAX_SAFE_INTEGER);

const argumentsSchema = z.record(z.string(), z.unknown(), {
  error: expecting("a mapping of argument names to values"),
});

const toolCallSchema = mapping(
  { name: nonEmptyString("a tool name"), arguments: argumentsSchema.optional() },
  "a tool call: name, arguments",
);

const answerSchema = mapping(
  {
    text: nonEmptyString("a non-empty text").optional(),
    tool_calls: nonEmptyList(toolCallSchema, "a list of at least one tool call").optional(),
  },
  "an answer: text, tool_calls",
).refine((answer) => answer.text !== undefined || answer.tool_calls !== undefined, {
  error: "expected text, tool_calls or both",
});

/** A regular expression as JavaScript writes it between slashes (no flags), checked when the script loads. */
const REGEX = "a regular expression";
const regexSchema = nonEmptyString(REGEX).transform((source, ctx) => {
  try {
    return new RegExp(source, "u");
  } catch {
    ctx.issues.push({
      code: "custom",
      input: source,
      message: `expected ${REGEX}, got one that does not compile`,
    });
    return z.NEVER;
  }
});

/** `call: N` or `call: [N, ...]`: the model requests this server answers, numbered from 1. */
const callSchema = z
  .union([positiveInteger, nonEmptyList(positiveInteger, "a list of positive integers")], {
    error: expecting("a positive integer or a list of them"),
  })
  .transform((value) => (Array.isArray(value) ? value : [value]));

const whenSchema = mapping(
  {
    user_contains: nonEmptyString().optional(),
    user_matches: regexSchema.optional(),
    tool_result: z.boolean({ error: expecting("true or false") }).optional(),
    call: callSchema.optional(),
  },
  "conditions: user_contains, user_matches, tool_result, call",
);

/** An error answer: the status and, in the provider's error body, its type and message. */
const errorSchema = mapping(
  {
    status: whole("an integer from 400 to 599", 400, 599),
    type: nonEmptyString("an error type such as rate_limit_error").optional(),
    message: nonEmptyString("a non-empty message").optional(),
    retry_after_seconds: whole("an integer of at least 0", 0, Number.MAX_SAFE_INTEGER).optional(),
  },
  "an error: status, type, message, retry_after_seconds",
);

const ruleSchema = mapping(
  {
    when: whenSchema.optional(),
    answer: answerSchema.optional(),
    error: errorSchema.optional(),
    latency_ms: whole("an integer from 0 to 600000", 0, 600_000).optional(),
  },
  "a rule: when, answer, error, latency_ms",
).superRefine(
  (rule, ctx) => {
    const { answer, error } = rule as Record<string, unknown>;
    if ((answer === undefined) === (error === undefined)) {
      ctx.addIssue({ code: "custom", input: rule, message: "expected exactly one of answer and error" });
    }
  },
  { when: (payload) => typeof payload.value === "object" && payload.value !== null },
);

export const scriptSchema = nonEmptyList(ruleSchema, "a list of at least one rule");

export type Script = z.output<typeof scriptSchema>;
export type ScriptRule = z.output<typeof ruleSchema>;
export type ScriptAnswer = z.output<typeof answerSchema>;
export type ScriptError = z.output<typeof errorSchema>;
