/**
 * The safe form of a URL (docs/events.md): scheme, host, port and path exactly as configured
 * (no `/` added when the path is empty); user information, query and fragment dropped.
 */
export function safeUrl(url: string): string {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)(?:[^/?#]*@)?([^/?#]*)([^?#]*)/.exec(url);
  if (match === null) return "";
  return `${match[1]}${match[2]}${match[3]}`;
}

/** A path as it may be recorded: without its query and fragment (their values may be secrets). */
export function safePath(path: string): string {
  const end = path.search(/[?#]/);
  return end === -1 ? path : path.slice(0, end);
}
