// Shared by the bench's server processes: announce the URL, and shut down once on SIGTERM,
// SIGINT or the parent going away (stdin ends), then exit.

/** Prints the line the parent waits for. */
export function announce(url) {
  process.stdout.write(`listening ${url}\n`);
}

/** Runs `close` (may be async) once on the first shutdown signal, then exits with 0. */
export function onShutdown(close) {
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(1), 2000);
    try {
      await close();
    } finally {
      clearTimeout(force);
      process.exit(0);
    }
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  process.stdin.on("end", shutdown);
  process.stdin.on("error", shutdown);
  process.stdin.resume();
}

/** `--name value` pairs from argv. */
export function flags(argv = process.argv.slice(2)) {
  const result = {};
  for (let i = 0; i + 1 < argv.length; i += 2) result[argv[i].replace(/^--/, "")] = argv[i + 1];
  return result;
}
