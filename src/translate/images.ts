/**
 * Image attachments: decoding the base64 the client sent and reading width and height from the
 * image's own bytes (PNG IHDR, JPEG SOFn marker, GIF logical screen, SVG width/height or viewBox).
 */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/jpg": "jpg",
  "image/gif": "gif",
  "image/svg+xml": "svg",
};

export type Image = { bytes: Uint8Array; base64: string; width: number; height: number; weight: number };

/** The attachment cannot be used; `message` says why, for the client. */
export class ImageError extends Error {
  override name = "ImageError";
}

/**
 * Decodes and measures an image. `weight` is in KB (1024 bytes), rounded up, so any image weighs
 * at least 1. Throws ImageError for an unsupported type, bad base64, or bytes that are not an
 * image of the declared type.
 */
export function readImage(type: string, data: string): Image {
  const kind = IMAGE_TYPES[type.toLowerCase()];
  if (!kind) throw new ImageError(`unsupported image type "${type}" (use ${Object.keys(IMAGE_TYPES).join(", ")})`);
  const base64 = data.replace(/^data:[^,]*;base64,/, "").replace(/\s+/g, "");
  if (base64.length === 0 || base64.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    throw new ImageError("data is not base64");
  }
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  const size = kind === "png" ? pngSize(bytes) : kind === "jpg" ? jpegSize(bytes) : kind === "gif" ? gifSize(bytes) : svgSize(bytes);
  if (!size) throw new ImageError(`data is not a ${kind.toUpperCase()} image`);
  return { bytes, base64, width: size[0], height: size[1], weight: Math.max(1, Math.ceil(bytes.length / 1024)) };
}

type Size = [number, number] | undefined;
const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

function pngSize(b: Uint8Array): Size {
  if (b.length < 24 || ascii(b, 1, 4) !== "PNG" || b[0] !== 0x89 || ascii(b, 12, 16) !== "IHDR") return undefined;
  return [u32be(b, 16), u32be(b, 20)];
}

function gifSize(b: Uint8Array): Size {
  if (b.length < 10 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return undefined;
  return [b[6]! | (b[7]! << 8), b[8]! | (b[9]! << 8)];
}

/** Walks the JPEG segments to the first start-of-frame marker (C0-CF except C4, C8, CC). */
function jpegSize(b: Uint8Array): Size {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return [u16be(b, i + 7), u16be(b, i + 5)];
    }
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}

/** width/height in px (or unitless); otherwise the viewBox; otherwise the CSS default 300x150. */
function svgSize(b: Uint8Array): Size {
  const text = new TextDecoder().decode(b.subarray(0, 64 * 1024));
  const tag = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!tag) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(tag)?.[1]?.trim();
  const px = (v: string | undefined) => {
    const m = v && /^(\d+(?:\.\d+)?)(px)?$/.exec(v);
    return m ? Math.round(Number(m[1])) : undefined;
  };
  const box = attr("viewBox")
    ?.split(/[\s,]+/)
    .map(Number);
  const boxSize = box && box.length === 4 && box.every(Number.isFinite) ? [Math.round(box[2]!), Math.round(box[3]!)] : undefined;
  let width = px(attr("width"));
  let height = px(attr("height"));
  if (boxSize && boxSize[0]! > 0 && boxSize[1]! > 0) {
    // One given dimension scales the other by the viewBox's aspect ratio, as browsers do.
    if (width === undefined && height !== undefined) width = Math.round((height * boxSize[0]!) / boxSize[1]!);
    if (height === undefined && width !== undefined) height = Math.round((width * boxSize[1]!) / boxSize[0]!);
    width ??= boxSize[0];
    height ??= boxSize[1];
  }
  return [width ?? 300, height ?? 150];
}
