/** 10 MiB: the cap on a request body and on a buffered upstream body. */
export const BODY_LIMIT = 10 * 1024 * 1024;

/** 64 MiB: the longest JSON-RPC line the stdio shim relays (docs/limits.md). */
export const STDIO_MESSAGE_LIMIT = 64 * 1024 * 1024;
