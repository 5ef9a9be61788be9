import { describe, expect, test } from "bun:test";
import { isHeaderName, isHeaderValue, isMethodToken, requestPartsProblem } from "../../src/lib/http-syntax";

describe("http-syntax", () => {
  test("methods are RFC 9110 tokens", () => {
    for (const m of ["GET", "POST", "PROPFIND", "M-SEARCH", "x_y!"]) expect(isMethodToken(m)).toBe(true);
    for (const m of ["", "POST;touch X;#", "GET ", "PO\r\nST", 'P"', "P(", "ÄPOST", "a/b"]) expect(isMethodToken(m)).toBe(false);
  });
  test("header names are tokens; values hold no control character but tab", () => {
    expect(isHeaderName("x-hub-signature-256")).toBe(true);
    expect(isHeaderName("x\r\ny")).toBe(false);
    expect(isHeaderName("a b")).toBe(false);
    expect(isHeaderName("")).toBe(false);
    expect(isHeaderValue("sha256=abc\tdef é 😀")).toBe(true);
    expect(isHeaderValue("")).toBe(true);
    for (const v of ["a\r\nb", "a\nb", "a\0b", "a\x7fb", "a\x1bb"]) expect(isHeaderValue(v)).toBe(false);
  });
  test("requestPartsProblem names what is wrong", () => {
    expect(requestPartsProblem("POST", { "content-type": "application/json" })).toBeNull();
    expect(requestPartsProblem("POST;id", {})).toBe("the method is not an HTTP token");
    expect(requestPartsProblem("POST", { "x\r\n": "v" })).toContain("is not an HTTP token");
    expect(requestPartsProblem("POST", { x: "v\r\nSet-Cookie: a" })).toBe("header x: the value holds a control character");
  });
});
