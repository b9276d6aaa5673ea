import { afterEach } from "vitest";
import { runCleanups } from "../helpers/cleanup.js";

// Registered for every test file, whether or not it shares its worker (see test/helpers/cleanup.ts).
afterEach(runCleanups);
