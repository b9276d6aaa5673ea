/** What both forwarding paths take from `base_url` besides its origin. */
export interface BaseUrlParts {
  /** The path without trailing slashes, put before every request target. */
  readonly prefix: string;
  /** `Basic …` from the URL's user information, for requests without their own; null without any. */
  readonly authorization: string | null;
}

export function baseUrlParts(url: URL): BaseUrlParts {
  return {
    prefix: url.pathname.replace(/\/+$/, ""),
    authorization:
      url.username === "" && url.password === ""
        ? null
        : `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`,
  };
}

/** A URL's `hostname` as `net.connect` and the resolver take it: an IPv6 address without its brackets. */
export function hostAddress(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}
