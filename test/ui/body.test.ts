import { describe, expect, test } from "bun:test";
import { curlOf, headersOf, viewBody } from "../../src/ui/body";

const enc = (s: string) => new TextEncoder().encode(s);

describe("a hook's body in the dashboard", () => {
  test("the curl command is aimed at the URL given, keeps the method and headers, and writes a text body as one readable argument", () => {
    const hook = { id: "01h", method: "PUT", headers: { host: "mailroom:8080", "content-length": "9", "content-type": "application/json", "x-note": "it's" } };
    expect(curlOf(hook, "https://app.example/hooks?x=1", enc(`{"a":"'"}`))).toBe(
      ["curl -X PUT 'https://app.example/hooks?x=1'", "-H 'content-type: application/json'", `-H 'x-note: it'\\''s'`, `--data-raw '{"a":"'\\''"}'`].join(
        " \\\n  ",
      ),
    );
  });

  test("a binary body is read from the file Download saves, not inlined", () => {
    expect(curlOf({ id: "01h", method: "POST", headers: {} }, "http://x/", new Uint8Array([0xff, 0xfe, 0]))).toBe(
      "curl -X POST 'http://x/' \\\n  --data-binary @01h.body",
    );
  });

  test("headers typed one a line become lowercase names; a line without a colon is an error naming it", () => {
    expect(headersOf("Content-Type: application/json\n\n  X-Token:  abc:def \n")).toEqual({ "content-type": "application/json", "x-token": "abc:def" });
    expect(() => headersOf("content-type application/json")).toThrow('"content-type application/json" is not "Name: value"');
  });

  test("bodies are viewed as JSON, form fields, text or hex, never as markup", () => {
    expect(viewBody(enc('{"a":1}'), "application/json")).toEqual({ kind: "json", text: '{\n  "a": 1\n}' });
    expect(viewBody(enc("a=1&b=%3Cb%3E"), "application/x-www-form-urlencoded").fields).toEqual([
      ["a", "1"],
      ["b", "<b>"],
    ]);
    expect(viewBody(enc("<script>alert(1)</script>"), "text/html")).toEqual({ kind: "text", text: "<script>alert(1)</script>" });
    expect(viewBody(new Uint8Array([0xff, 0x00]), "").kind).toBe("hex");
  });
});
