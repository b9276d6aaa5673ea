import { createHash } from "node:crypto";
import { type JsonObject, modelOf } from "./turn.js";

/** The dimensions of a vector when the request names none (as `text-embedding-3-small`). */
export const DEFAULT_DIMENSIONS = 1536;
const MAX_DIMENSIONS = 4096;
const MAX_INPUTS = 2048;

/**
 * One input's vector: SHA-256 in counter mode over the input and the dimension count, read as
 * 16-bit numbers spread over [-1, 1], then scaled to length 1, in float32. The same input gives
 * the same vector on every run and platform.
 */
export function embeddingVector(input: string, dimensions: number): Float32Array {
  const values = new Float64Array(dimensions);
  for (let block = 0; block * 16 < dimensions; block++) {
    const digest = createHash("sha256")
      .update(`agentchaos-embedding-v1:${dimensions}:${block}:${input}`)
      .digest();
    for (let i = 0; i < 16 && block * 16 + i < dimensions; i++) {
      values[block * 16 + i] = (digest.readUInt16BE(i * 2) / 65535) * 2 - 1;
    }
  }
  const length = Math.hypot(...values) || 1;
  return Float32Array.from(values, (value) => value / length);
}

/** The inputs as texts (a token list becomes its numbers joined by commas), or why they are invalid. */
function inputsOf(input: unknown): string[] | string {
  const isTokens = (value: unknown): value is number[] =>
    Array.isArray(value) && value.length > 0 && value.every((token) => Number.isInteger(token));
  if (typeof input === "string") return input === "" ? "input: must not be empty" : [input];
  if (isTokens(input)) return [input.join(",")];
  if (!Array.isArray(input) || input.length === 0) return "input: expected a string or a non-empty list";
  if (input.length > MAX_INPUTS) return `input: at most ${MAX_INPUTS} inputs`;
  const texts: string[] = [];
  for (const item of input) {
    if (typeof item === "string" && item !== "") texts.push(item);
    else if (isTokens(item)) texts.push(item.join(","));
    else return "input: every item must be a non-empty string or a list of token integers";
  }
  return texts;
}

function tokensOf(text: string): number {
  return text.includes(",") && /^[\d,]+$/.test(text)
    ? text.split(",").length
    : text.split(/\s+/).filter(Boolean).length;
}

/** `POST /v1/embeddings` (OpenAI's shape): deterministic vectors, `float` or `base64`, with usage; a string is why the request is invalid. */
export function embeddings(body: JsonObject): unknown {
  const texts = inputsOf(body.input);
  if (typeof texts === "string") return texts;
  const dimensions = body.dimensions ?? DEFAULT_DIMENSIONS;
  if (!Number.isInteger(dimensions) || (dimensions as number) < 1 || (dimensions as number) > MAX_DIMENSIONS)
    return `dimensions: expected an integer from 1 to ${MAX_DIMENSIONS}`;
  const format = body.encoding_format ?? "float";
  if (format !== "float" && format !== "base64") return 'encoding_format: expected "float" or "base64"';
  const data = texts.map((text, index) => {
    const vector = embeddingVector(text, dimensions as number);
    const embedding =
      format === "base64"
        ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString("base64")
        : Array.from(vector);
    return { object: "embedding", index, embedding };
  });
  const tokens = texts.reduce((sum, text) => sum + tokensOf(text), 0);
  return {
    object: "list",
    data,
    model: typeof body.model === "string" && body.model !== "" ? modelOf(body) : "fake-embedding",
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
