import * as z from "zod";
import { expecting, mapping, nonEmptyList, nonEmptyString } from "../scenario/fields.js";

/**
 * A fake-llm script: a list of rules. Each request is answered by the first rule whose every
 * `when` condition holds (a rule without `when` matches every request).
 */
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

const whenSchema = mapping(
  {
    user_contains: nonEmptyString().optional(),
    tool_result: z.boolean({ error: expecting("true or false") }).optional(),
  },
  "conditions: user_contains, tool_result",
);

const ruleSchema = mapping({ when: whenSchema.optional(), answer: answerSchema }, "a rule: when, answer");

export const scriptSchema = nonEmptyList(ruleSchema, "a list of at least one rule");

export type Script = z.output<typeof scriptSchema>;
export type ScriptRule = z.output<typeof ruleSchema>;
export type ScriptAnswer = z.output<typeof answerSchema>;
