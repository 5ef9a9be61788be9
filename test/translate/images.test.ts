import { describe, expect, test } from "bun:test";
import { ImageError, readImage } from "../../src/translate/images";

const b64 = (bytes: number[] | Uint8Array | string) => Buffer.from(typeof bytes === "string" ? Buffer.from(bytes) : Uint8Array.from(bytes)).toString("base64");

/** A PNG signature and IHDR chunk: enough for the reader, as a real file starts. */
function png(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

/** SOI, an APP0 segment to skip, then SOF0 with the size. */
function jpeg(width: number, height: number): Uint8Array {
  return Uint8Array.from([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x06,
    0x4a,
    0x46,
    0x49,
    0x46,
    0xff,
    0xc0,
    0x00,
    0x0b,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x01,
    0x01,
    0x11,
    0x00,
    0xff,
    0xd9,
  ]);
}

const gif = (width: number, height: number) => Uint8Array.from([...Buffer.from("GIF89a"), width & 0xff, width >> 8, height & 0xff, height >> 8, 0, 0, 0]);

describe("readImage", () => {
  test("PNG size from IHDR", () => {
    const image = readImage("image/png", b64(png(640, 480)));
    expect([image.width, image.height]).toEqual([640, 480]);
    expect(image.weight).toBe(1);
  });

  test("JPEG size from the first SOF marker", () => {
    expect(readImage("image/jpeg", b64(jpeg(1024, 768)))).toMatchObject({ width: 1024, height: 768 });
  });

  test("GIF size from the logical screen", () => {
    expect(readImage("image/gif", b64(gif(300, 2)))).toMatchObject({ width: 300, height: 2 });
  });

  test("SVG size from width/height, then viewBox, then the 300x150 default", () => {
    const size = (svg: string) => {
      const i = readImage("image/svg+xml", b64(svg));
      return `${i.width}x${i.height}`;
    };
    expect(size(`<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80px"></svg>`)).toBe("120x80");
    expect(size(`<?xml version="1.0"?><svg viewBox="0 0 64 32"/>`)).toBe("64x32");
    expect(size(`<svg width="128" viewBox="0,0,64,32"/>`)).toBe("128x64");
    expect(size(`<svg width="50%"/>`)).toBe("300x150");
  });

  test("weight is KB rounded up", () => {
    const big = new Uint8Array(2049);
    big.set(png(1, 1));
    expect(readImage("image/png", b64(big)).weight).toBe(3);
  });

  test("accepts a data: URL prefix and line-wrapped base64", () => {
    const data = b64(png(2, 3));
    expect(readImage("image/png", `data:image/png;base64,${data.slice(0, 10)}\n${data.slice(10)}`)).toMatchObject({ width: 2, height: 3 });
  });

  test("refuses unsupported types, bad base64 and bytes of another type", () => {
    expect(() => readImage("image/webp", b64(png(1, 1)))).toThrow(ImageError);
    expect(() => readImage("image/png", "not base64!")).toThrow(/base64/);
    expect(() => readImage("image/png", "")).toThrow(ImageError);
    expect(() => readImage("image/png", b64(jpeg(1, 1)))).toThrow(/PNG/);
    expect(() => readImage("image/jpeg", b64([0xff, 0xd8, 0x00, 0x00]))).toThrow(/JPG/);
    expect(() => readImage("image/svg+xml", b64("<html></html>"))).toThrow(ImageError);
  });
});
