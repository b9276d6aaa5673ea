import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { bodyHash, decodePath, fingerprint, queryHash } from "../../src/proxy/fingerprint.js";

// Vectors computed independently with coreutils:
//   printf 'b=2&a=1' | sha256sum                       -> a746b90c…1142834
//   printf '{"id":1}' | sha256sum                      -> 037c9214…4ba1cfd4
//   printf 'POST\0/customer/1\0<qh>\0<bh>' | sha256sum -> 300fdbc7…0220922a
//   printf '' | sha256sum                              -> e3b0c442…7852b855
//   printf 'GET\0/caf\xc3\xa9 x\0<empty>\0<empty>' | sha256sum -> 8f10112b…bb5adfc9
const QUERY = "a746b90cddac3e075db2f0c7b65aa5d09a354bef1562352d9dab3156d1142834";
const BODY = "037c9214eef74cc3887f3a4f085b4e17d76280dafd273b0ee160c09c4ba1cfd4";
const POST_FINGERPRINT = "300fdbc7affa4947d0721e5fc19eddb5510d8a4910e9c1d7e3df06ee0220922a";
const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const UNICODE_FINGERPRINT = "8f10112bdf1b98d8678546ef607feb83511b46882e8984fc4e484788bb5adfc9";

describe("fingerprints", () => {
  it("hash the raw query, the body bytes and the NUL-joined parts as lowercase hex SHA-256", () => {
    expect(queryHash("b=2&a=1")).toBe(QUERY);
    expect(bodyHash(Buffer.from('{"id":1}'))).toBe(BODY);
    expect(fingerprint("POST", "/customer/1", QUERY, BODY)).toBe(POST_FINGERPRINT);
  });

  it("use the hash of the empty string for a missing query or an empty body", () => {
    expect(queryHash("")).toBe(EMPTY);
    expect(bodyHash(Buffer.alloc(0))).toBe(EMPTY);
  });

  it("upper-case the method and hash the path as UTF-8", () => {
    expect(fingerprint("get", "/café x", EMPTY, EMPTY)).toBe(UNICODE_FINGERPRINT);
    expect(fingerprint("GET", decodePath("/caf%C3%A9%20x"), EMPTY, EMPTY)).toBe(UNICODE_FINGERPRINT);
  });

  it("stay the SHA-256 of their parts however many distinct requests come and go", () => {
    const expected = (i: number) =>
      createHash("sha256").update(`GET\0/item/${i}\0${EMPTY}\0${EMPTY}`).digest("hex");
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3000; i += 7)
        expect(fingerprint("GET", `/item/${i}`, EMPTY, EMPTY)).toBe(expected(i));
    }
    expect(fingerprint("POST", "/customer/1", QUERY, BODY)).toBe(POST_FINGERPRINT);
  });

  it("do not depend on query parameter order being normalised", () => {
    expect(queryHash("a=1&b=2")).not.toBe(queryHash("b=2&a=1"));
  });
});

describe("path decoding", () => {
  it("percent-decodes escapes, including an encoded slash", () => {
    expect(decodePath("/customer/a%2Fb%20c")).toBe("/customer/a/b c");
  });

  it("leaves a path without escapes untouched and never throws on malformed escapes", () => {
    expect(decodePath("/plain/path")).toBe("/plain/path");
    expect(decodePath("/bad%zz/%")).toBe("/bad%zz/%");
    expect(decodePath("/invalid%FF")).toBe("/invalid\uFFFD");
  });
});
