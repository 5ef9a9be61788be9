import { toRfc3339 } from "../lib/clock";
import { VERSION } from "../lib/version";
import { mediaType } from "../hooks/model";
import type { TransferHook } from "./store";

/** What a HAR 1.2 document opens and closes with around its entries (streamed between). */
export const HAR_OPEN = `{"log":{"version":"1.2","creator":{"name":"mailroom","version":${JSON.stringify(VERSION)}},"entries":[`;
export const HAR_CLOSE = "]}}";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A hook as a HAR 1.2 entry: the request as it was caught (url on `base`, the catching endpoint),
 * and the 200 Mailroom answered. A body that is not UTF-8 is in `postData.text` as base64 with
 * `_encoding: "base64"` (HAR's own `encoding` exists only for responses). The hook id, channel and
 * status are `_mailroom`.
 */
export function harEntry(h: TransferHook, base: string): string {
  let text: string;
  let encoding: string | undefined;
  try {
    text = utf8.decode(h.body);
  } catch {
    text = Buffer.from(h.body).toString("base64");
    encoding = "base64";
  }
  const queryString = [...new URLSearchParams(h.query)].map(([name, value]) => ({ name, value }));
  const request = {
    method: h.method,
    url: `${base.replace(/\/$/, "")}/${h.query ? `?${h.query}` : ""}`,
    httpVersion: "HTTP/1.1",
    cookies: [],
    headers: Object.entries(h.headers).map(([name, value]) => ({ name, value })),
    queryString,
    ...(h.body.byteLength > 0 || h.method !== "GET"
      ? { postData: { mimeType: h.headers["content-type"] ?? mediaType(h.headers), text, ...(encoding ? { _encoding: encoding } : {}) } }
      : {}),
    headersSize: -1,
    bodySize: h.body.byteLength,
  };
  const id = JSON.stringify({ id: h.id });
  return JSON.stringify({
    startedDateTime: toRfc3339(h.createdAt),
    time: 0,
    request,
    response: {
      status: 200,
      statusText: "OK",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "content-type", value: "application/json" }],
      content: { size: id.length, mimeType: "application/json", text: id },
      redirectURL: "",
      headersSize: -1,
      bodySize: id.length,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    _mailroom: { id: h.id, channel: h.channel, status: h.status, source_id: h.sourceId },
  });
}
