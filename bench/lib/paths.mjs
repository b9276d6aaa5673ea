// Locations the measurements share.
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/bin/agentchaos.js", import.meta.url));
export const EXAMPLES = fileURLToPath(new URL("../../examples/", import.meta.url));
