/** A request target split the way operations need it. */
export interface RequestTarget {
  /** What is appended to `base_url`: raw path plus `?query` when there is one. */
  readonly forward: string;
  /** Raw (still percent-encoded) path. */
  readonly rawPath: string;
  /** Raw query without `?`; empty when there is none. */
  readonly rawQuery: string;
}

/**
 * Splits Node's `request.url`. An absolute-form target (`http://host/path?q`, sent by clients
 * that treat the proxy as a forward proxy) keeps only its path and query.
 */
export function splitTarget(url: string): RequestTarget {
  let forward = url;
  if (!url.startsWith("/") && /^https?:\/\//i.test(url)) {
    const afterAuthority = url.indexOf("/", url.indexOf("//") + 2);
    const queryStart = url.indexOf("?", url.indexOf("//") + 2);
    const start =
      afterAuthority < 0 || (queryStart >= 0 && queryStart < afterAuthority) ? -1 : afterAuthority;
    forward = start < 0 ? `/${queryStart < 0 ? "" : url.slice(queryStart)}` : url.slice(start);
  }
  const question = forward.indexOf("?");
  if (question < 0) return { forward, rawPath: forward, rawQuery: "" };
  return { forward, rawPath: forward.slice(0, question), rawQuery: forward.slice(question + 1) };
}
