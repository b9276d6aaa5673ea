import { errorTypeOf } from "../scenario/model-faults.js";
import type { ScriptError } from "./script-schema.js";

/** The error types a status gets when the rule names none, beyond those `errorTypeOf` knows (the providers' own words). */
const MORE_TYPES: Readonly<Record<number, string>> = {
  408: "timeout_error",
  409: "conflict_error",
  503: "overloaded_error",
};

/** A script rule's error answer: its status, headers, and the type and message of the provider's error body. */
export function errorAnswer(error: ScriptError): {
  status: number;
  headers: Record<string, string>;
  type: string;
  message: string;
} {
  return {
    status: error.status,
    headers:
      error.retry_after_seconds === undefined ? {} : { "Retry-After": String(error.retry_after_seconds) },
    type: error.type ?? errorTypeOf(error.status, MORE_TYPES),
    message: error.message ?? `fake-llm script error ${error.status}`,
  };
}
