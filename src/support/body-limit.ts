/** 10 MiB: the cap on a request body and on a buffered upstream body. */
export const BODY_LIMIT = 10 * 1024 * 1024;
