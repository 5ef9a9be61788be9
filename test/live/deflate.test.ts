import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import { acceptsDeflate, adlerCombine, deflateTrailer, DEFLATE_HEADER, encodePiece } from "../../src/live/deflate";

describe("live/deflate", () => {
  test("pieces deflated apart make one zlib stream with the checksum of the whole", () => {
    const texts = ["retry: 2000\n\n", "id: a-1\nevent: hook\ndata: {}\n\n".repeat(3000), "", "é\u0000\uffff end"].map((t) => new TextEncoder().encode(t));
    let adler = 1;
    const parts: Uint8Array[] = [DEFLATE_HEADER];
    for (const t of texts) {
      const piece = encodePiece(t, true);
      expect(piece.adler).toBe(Bun.hash.adler32(t));
      adler = adlerCombine(adler, piece.adler!, piece.length);
      parts.push(piece.bytes);
    }
    parts.push(deflateTrailer(adler));
    expect(new Uint8Array(inflateSync(Buffer.concat(parts)))).toEqual(new Uint8Array(Buffer.concat(texts)));
    // A wrong checksum is caught by the decoder, so the trailer is really checked above.
    expect(() => inflateSync(Buffer.concat([...parts.slice(0, -1), deflateTrailer(adler ^ 1)]))).toThrow();
  });

  test("adlerCombine agrees with adler32 of the concatenation, for lengths around the modulus", () => {
    for (const n of [0, 1, 65520, 65521, 65522, 200_000]) {
      const a = new Uint8Array(1000).map((_, i) => i * 31);
      const b = new Uint8Array(n).map((_, i) => 255 - (i % 256));
      expect(adlerCombine(Bun.hash.adler32(a), Bun.hash.adler32(b), n)).toBe(Bun.hash.adler32(Buffer.concat([a, b])));
    }
  });

  test("plain pieces are the text itself", () => {
    const t = new TextEncoder().encode("data: x\n\n");
    expect(encodePiece(t, false)).toEqual({ bytes: t, length: t.byteLength });
  });

  test("acceptsDeflate reads Accept-Encoding with q values", () => {
    expect(acceptsDeflate("gzip, deflate, br, zstd")).toBe(true);
    expect(acceptsDeflate("deflate;q=0")).toBe(false);
    expect(acceptsDeflate("deflate; q=0.0, *")).toBe(false);
    expect(acceptsDeflate("*;q=0.1")).toBe(true);
    expect(acceptsDeflate("identity")).toBe(false);
    expect(acceptsDeflate(null)).toBe(false);
  });
});
