import { ResourceError, type Segment } from "./types";

/**
 * Values of an Apple `.strings` file (`"key" = "value";`, with `/* *\/` and `//` comments). Keys
 * and comments are not translatable; values are unescaped (`\"`, `\n`, `\U00e9`). Keys may be
 * unquoted words; values must be quoted. Throws ResourceError naming the line of the first problem.
 */
export function stringsSegments(data: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  const fail = (what: string): never => {
    const line = data.slice(0, i).split("\n").length;
    throw new ResourceError(`the .strings resource is malformed at line ${line}: ${what}`);
  };
  const skip = () => {
    for (;;) {
      while (i < data.length && /[\s\uFEFF]/.test(data[i]!)) i++;
      if (data.startsWith("/*", i)) {
        const close = data.indexOf("*/", i + 2);
        if (close < 0) fail("unterminated comment");
        i = close + 2;
      } else if (data.startsWith("//", i)) {
        const close = data.indexOf("\n", i);
        i = close < 0 ? data.length : close + 1;
      } else return;
    }
  };
  const quoted = (): Segment => {
    if (data[i] !== '"') fail("expected a quoted string");
    const start = i + 1;
    let j = start;
    while (j < data.length && data[j] !== '"') j += data[j] === "\\" ? 2 : 1;
    if (j >= data.length) fail("unterminated string");
    i = j + 1;
    return { start, end: j, text: unescapeString(data.slice(start, j)) };
  };
  const expect = (c: string) => {
    skip();
    if (data[i] !== c) fail(`expected "${c}"`);
    i++;
  };
  skip();
  while (i < data.length) {
    if (data[i] === '"') quoted();
    else {
      const word = /^[A-Za-z0-9_.$:/-]+/.exec(data.slice(i, i + 1000))?.[0];
      if (!word) fail("expected a key");
      i += word!.length;
    }
    expect("=");
    skip();
    out.push(quoted());
    expect(";");
    skip();
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "0": "\0", '"': '"', "\\": "\\", "'": "'" };

function unescapeString(raw: string): string {
  return raw.replace(/\\(U[0-9a-fA-F]{4}|u[0-9a-fA-F]{4}|.)/gs, (whole, e: string) =>
    e.length === 5 ? String.fromCharCode(parseInt(e.slice(1), 16)) : (ESCAPES[e] ?? e),
  );
}
