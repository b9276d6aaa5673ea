import { CREATED } from "./api.js";

/** The models the fake lists (it answers any model name a request gives). */
export const LISTED_MODELS = ["fake-model", "fake-embedding"] as const;

const CREATED_AT = new Date(CREATED * 1000).toISOString().replace(".000Z", "Z");

function openAiModel(id: string) {
  return { id, object: "model", created: CREATED, owned_by: "agentchaos" };
}

function anthropicModel(id: string) {
  return { type: "model", id, display_name: id, created_at: CREATED_AT };
}

/**
 * `GET /v1/models` and `GET /v1/models/{id}` in OpenAI's shape, or Anthropic's when the request
 * carries `anthropic-version` (as the Anthropic client always does). Any id is found; null for a
 * path with more segments.
 */
export function modelList(route: string, anthropic: boolean): unknown {
  const shape = (id: string): unknown => (anthropic ? anthropicModel(id) : openAiModel(id));
  if (route === "/models") {
    const data = LISTED_MODELS.map((id) => shape(id));
    if (!anthropic) return { object: "list", data };
    return { data, has_more: false, first_id: LISTED_MODELS[0], last_id: LISTED_MODELS.at(-1) };
  }
  const id = decodeURIComponent(route.slice("/models/".length));
  return id === "" || id.includes("/") ? null : shape(id);
}
