import { resolve } from "node:path";
import * as z from "zod";
import { expecting, mapping, matching, nonEmptyString } from "./fields.js";
import type { ReplayConfig, ReplayMatchField } from "./types.js";

/** RFC 6901 JSON Pointer; the empty pointer (the whole document) is refused. */
export const JSON_POINTER = /^(\/([^~/]|~[01])*)+$/;

export const REPLAY_MATCH_FIELDS: readonly ReplayMatchField[] = ["method", "path", "body", "query"];
export const DEFAULT_REPLAY_MATCH: readonly ReplayMatchField[] = ["method", "path", "body"];

/**
 * A dependency's `replay` mapping (docs/replay.md). The cassette path resolves against the
 * scenario file's folder; `on_mismatch: live` needs a live upstream to forward to, so it is
 * accepted only where `allowLive` (http dependencies).
 */
export function replaySchema(baseDir: string, name: string, allowLive: boolean) {
  const where = `dependencies.${name}.replay`;
  const matchList = z
    .array(z.enum(["method", "path", "body", "query"], { error: expecting("method, path, body or query") }), {
      error: expecting("a list of match fields (method, path, body, query)"),
    })
    .min(1, { error: "expected a list of match fields (method, path, body, query), got an empty list" })
    .refine((list) => new Set(list).size === list.length, {
      error: "expected each match field at most once",
    });
  const onMismatch = allowLive
    ? z.enum(["fail", "live"], { error: expecting('"fail" or "live"') })
    : z.enum(["fail"], {
        error: (issue) =>
          issue.input === "live"
            ? 'expected "fail": an mcp_stdio dependency has no live upstream to forward a mismatch to'
            : expecting('"fail"')(issue),
      });
  return mapping(
    {
      cassette: nonEmptyString("a cassette file path (relative to the scenario's folder)"),
      match: matchList.optional(),
      on_mismatch: onMismatch.optional(),
      timing: z.enum(["recorded", "immediate"], { error: expecting('"recorded" or "immediate"') }).optional(),
      redact: z
        .array(matching(JSON_POINTER, "a JSON Pointer such as /data/0/token (RFC 6901)"), {
          error: expecting("a list of JSON Pointers"),
        })
        .max(64, { error: "expected at most 64 JSON Pointers" })
        .optional(),
    },
    where,
  ).transform(
    (replay): ReplayConfig => ({
      cassette: resolve(baseDir, replay.cassette),
      cassetteAsWritten: replay.cassette,
      match: replay.match ?? DEFAULT_REPLAY_MATCH,
      onMismatch: replay.on_mismatch ?? "fail",
      timing: replay.timing ?? "recorded",
      redact: replay.redact ?? [],
    }),
  );
}
