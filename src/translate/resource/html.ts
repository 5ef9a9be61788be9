import type { Segment } from "./types";

/**
 * Text nodes of an HTML document or fragment: what a reader sees. Tags, attributes, comments,
 * doctype and the contents of <script> and <style> are not translatable text. Entities are
 * decoded (`&amp;` counts as one character). Never throws: browsers read any input too.
 */
export function htmlSegments(data: string): Segment[] {
  const out: Segment[] = [];
  const n = data.length;
  let textStart = 0;
  let i = 0;
  const flush = (end: number) => {
    if (end > textStart) out.push({ start: textStart, end, text: decodeEntities(data.slice(textStart, end)) });
  };
  while (i < n) {
    if (data[i] !== "<" || !/[A-Za-z/!?]/.test(data[i + 1] ?? "")) {
      i++;
      continue;
    }
    flush(i);
    if (data.startsWith("<!--", i)) {
      const close = data.indexOf("-->", i + 4);
      i = close < 0 ? n : close + 3;
    } else {
      const end = tagEnd(data, i);
      const name = /^<([A-Za-z][A-Za-z0-9-]*)/.exec(data.slice(i, Math.min(end, i + 40)))?.[1]?.toLowerCase();
      i = end;
      if ((name === "script" || name === "style") && data[end - 2] !== "/") {
        // Searched in place, case-insensitively: lowercasing the document for each such tag was
        // quadratic, and lowercasing may change its length (İ), which shifted the index found.
        const closing = CLOSING[name];
        closing.lastIndex = i;
        i = closing.exec(data)?.index ?? n;
      }
    }
    textStart = i;
  }
  flush(n);
  return out;
}

const CLOSING = { script: /<\/script/gi, style: /<\/style/gi };

/** Index just past the `>` closing the tag that starts at `from`; quoted attribute values may hold `>`. */
function tagEnd(data: string, from: number): number {
  let quote = "";
  for (let i = from + 1; i < data.length; i++) {
    const c = data[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      // Quotes open only inside the tag's attribute part, after an "=".
      if (/=\s*$/.test(data.slice(Math.max(from, i - 8), i))) quote = c;
    } else if (c === ">") return i + 1;
  }
  return data.length;
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  laquo: "«",
  raquo: "»",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  deg: "°",
  middot: "·",
  bull: "•",
  times: "×",
};

/** Decodes numeric entities and the common named ones; unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g, (whole, body: string) => {
    if (body[0] !== "#") return NAMED[body] ?? whole;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
