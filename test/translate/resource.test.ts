import { describe, expect, test } from "bun:test";
import { pseudoTranslate, ResourceError, segmentsOf, snippetOf, volumeOf } from "../../src/translate/resource";

const volume = (type: Parameters<typeof segmentsOf>[0], data: string) => volumeOf(type, segmentsOf(type, data));

describe("text/plain", () => {
  test("counts code points, whitespace runs as one, ends trimmed", () => {
    expect(volume("text/plain", "Hello world")).toBe(11);
    expect(volume("text/plain", "  Hello \n\n  world  ")).toBe(11);
    expect(volume("text/plain", "héllo 😀")).toBe(7);
    expect(volume("text/plain", " \n\t ")).toBe(0);
  });
});

describe("text/html", () => {
  test("counts text nodes only: no tags, attributes, comments, scripts or styles", () => {
    const html = `<!DOCTYPE html><html><head><title>Hi</title><style>p { color: red }</style>
      <script>var x = "<p>not text</p>";</script></head>
      <body><!-- a comment --><p class="intro" title="Not counted">Hello <b>big</b> world</p></body></html>`;
    // "Hi", then "Hello big world" as one flow
    expect(volume("text/html", html)).toBe(2 + 1 + 15);
  });

  test("decodes entities and keeps a lone < as text", () => {
    expect(volume("text/html", "<p>Fish &amp; chips</p>")).toBe("Fish & chips".length);
    expect(volume("text/html", "<p>&#233;t&eacute;</p>")).toBe("ét&eacute;".length);
    expect(volume("text/html", "<p>1 < 2</p>")).toBe(5);
  });

  test("text nodes form one flow: inline tags keep the space, adjacent blocks do not add one", () => {
    expect(volume("text/html", "Hello <b>world</b>")).toBe(11);
    expect(volume("text/html", "<p>Hello</p>\n  <p>world</p>")).toBe(11);
    expect(volume("text/html", "<p>Hello</p><p>world</p>")).toBe(10);
  });

  test("a > inside a quoted attribute does not end the tag", () => {
    expect(volume("text/html", `<a title="a > b" href='x>y'>Link</a>`)).toBe(4);
  });

  test("an unterminated script swallows the rest; a self-closing one does not", () => {
    expect(volume("text/html", "<p>ab</p><script>x")).toBe(2);
    expect(volume("text/html", "<script src='x'/>ab")).toBe(2);
  });

  test("a closing </SCRIPT> is found whatever its case, and text whose lowercase is longer (İ) does not shift it", () => {
    expect(segmentsOf("text/html", "<SCRIPT>x</Script>ab").map((s) => s.text)).toEqual(["ab"]);
    expect(segmentsOf("text/html", "İİİİİ<script>x</script>hello<style>y</STYLE>!").map((s) => s.text)).toEqual(["İİİİİ", "hello", "!"]);
  });

  test("thousands of scripts: each one is skipped and the text after them is found", () => {
    const html = "<script></script>".repeat(12_000) + "hello";
    expect(segmentsOf("text/html", html).map((s) => s.text)).toEqual(["hello"]);
  });
});

describe("application/json", () => {
  test("counts string values at any depth, not keys, numbers or booleans", () => {
    const json = JSON.stringify({ title: "Hello", count: 3, ok: true, nested: { items: ["One", "Two"], key: null } });
    expect(volume("application/json", json)).toBe(5 + 3 + 3);
  });

  test("unescapes values and handles a key-looking string value", () => {
    expect(volume("application/json", '{"a": "x\\"y", "b" : "c:d"}')).toBe(3 + 3);
    expect(volume("application/json", '"just a string"')).toBe(13);
  });

  test("invalid JSON is a ResourceError", () => {
    expect(() => segmentsOf("application/json", "{nope")).toThrow(ResourceError);
  });
});

describe("text/x-objcstrings", () => {
  test("counts values only; comments and keys are not text", () => {
    const strings = `/* Greeting */\n"greeting" = "Hello";\n// other\nfarewell = "Good \\"bye\\"";\n"é" = "\\U00e9t\\u00e9";\n`;
    expect(volume("text/x-objcstrings", strings)).toBe(5 + 10 + 3);
  });

  test("malformed files are ResourceErrors naming the line", () => {
    expect(() => segmentsOf("text/x-objcstrings", '"a" = "b";\n"c" "d";')).toThrow(/line 2/);
    expect(() => segmentsOf("text/x-objcstrings", '"a" = "b"')).toThrow(ResourceError);
    expect(() => segmentsOf("text/x-objcstrings", '"a" = unquoted;')).toThrow(ResourceError);
    expect(() => segmentsOf("text/x-objcstrings", "/* open")).toThrow(ResourceError);
  });

  test("an empty file has no text", () => {
    expect(volume("text/x-objcstrings", "/* nothing */\n")).toBe(0);
  });
});

describe("snippet", () => {
  test("joins the text and cuts long text with an ellipsis", () => {
    expect(snippetOf("text/html", segmentsOf("text/html", "<p>Hello</p>\n<p>world</p>"))).toBe("Hello world");
    expect(snippetOf("application/json", segmentsOf("application/json", '["Hello", "world"]'))).toBe("Hello world");
    const long = snippetOf("text/plain", segmentsOf("text/plain", "x".repeat(300)));
    expect(Array.from(long).length).toBe(100);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("pseudo-translation", () => {
  test("prefixes every segment in place and keeps the structure valid", () => {
    expect(pseudoTranslate("text/plain", "Hello", "is")).toBe("[is] Hello");
    expect(pseudoTranslate("text/html", "<p> Hi <b>there</b></p>", "de")).toBe("<p> [de] Hi <b>[de] there</b></p>");
    const json = pseudoTranslate("application/json", '{"k": "Hi", "n": 1, "l": ["a"]}', "fr");
    expect(JSON.parse(json)).toEqual({ k: "[fr] Hi", n: 1, l: ["[fr] a"] });
    const strings = pseudoTranslate("text/x-objcstrings", '"k" = "Hi";', "ja");
    expect(strings).toBe('"k" = "[ja] Hi";');
  });

  test("is deterministic", () => {
    expect(pseudoTranslate("text/html", "<p>x</p>", "is")).toBe(pseudoTranslate("text/html", "<p>x</p>", "is"));
  });
});
