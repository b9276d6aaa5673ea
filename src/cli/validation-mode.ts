import { config } from "zod";

/**
 * A CLI process validates each scenario (and menu, script, report) once. zod's default fast
 * path compiles a validator per object schema with `new Function` on first use, which costs
 * more than it saves for one document, on the path before a run's first process starts
 * (docs/performance.md): the CLI switches it off. The library leaves zod's settings alone (a
 * user's own zod may share them). zod reads the setting when a schema is built, so this module
 * is loaded before the modules of each command that validates (cli/index.ts).
 */
config({ jitless: true });
