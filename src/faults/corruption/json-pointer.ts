/** RFC 6901 JSON pointers: `""` is the whole document, `/a/0/b~1c` the tokens `a`, `0`, `b/c`. */

export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}
