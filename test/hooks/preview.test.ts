import { expect, test } from "bun:test";
import { bodyPreview, PREVIEW_BYTES } from "../../src/hooks/preview";

const enc = (s: string) => new TextEncoder().encode(s);

test("bodyPreview: one line of the first 100 characters; control characters and bad UTF-8 as U+FFFD; binary bodies give nothing", () => {
  expect(bodyPreview(enc('{\n  "a": 1,\t"b": [1, 2]\r\n}'))).toBe('{ "a": 1, "b": [1, 2] }');
  expect(bodyPreview(enc("x".repeat(150)))).toBe("x".repeat(100));
  expect(bodyPreview(enc("é✓😀".repeat(50)))).toBe([..."é✓😀".repeat(50)].slice(0, 100).join(""));
  expect(bodyPreview(enc("bell\u0007 and escape\u001b[31m red"))).toBe("bell\uFFFD and escape\uFFFD[31m red");
  // A right-to-left override or a zero-width space would hide or turn the text around; a zero-width joiner (emoji) stays.
  expect(bodyPreview(enc('{"type":"\u202egnp.exe\u200b👨\u200d👩"} and enough readable text beside it'))).toBe(
    '{"type":"\uFFFDgnp.exe\uFFFD👨\u200d👩"} and enough readable text beside it',
  );
  expect(bodyPreview(new Uint8Array([0x61, 0x62, 0xff, 0x63, ...enc(" plenty of readable text around it")]))).toBe(
    "ab\uFFFDc plenty of readable text around it",
  );
  expect(bodyPreview(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe("");
  expect(bodyPreview(new Uint8Array([0xff, 0xfe, 0xfd, 0xfc, 0x41]))).toBe("");
  expect(bodyPreview(new Uint8Array(0))).toBe("");
  // A multi-byte character cut by the byte limit is dropped, not shown as U+FFFD.
  const cut = enc(`${"a".repeat(PREVIEW_BYTES - 1)}é`).subarray(0, PREVIEW_BYTES);
  expect(bodyPreview(cut)).toBe("a".repeat(100));
  expect(bodyPreview(enc('<p onclick="x">&lt;hi&gt;</p>'))).toBe('<p onclick="x">&lt;hi&gt;</p>'); // text, for the page to escape
});

test("bodyPreview: Hebrew or Arabic text with its right-to-left marks keeps a preview (the marks are shown as U+FFFD, not counted as unreadable)", () => {
  const text = '{"msg":"\u200fשלום\u200f \u200fעולם\u200f"}';
  expect(bodyPreview(enc(text))).toBe('{"msg":"\uFFFDשלום\uFFFD \uFFFDעולם\uFFFD"}');
});
