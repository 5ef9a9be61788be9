import { toRfc3339 } from "../lib/clock";
import { mediaType } from "../hooks/model";
import type { RawHook } from "../hooks/store";

/**
 * The hook as `command` handlers read it on standard input and `module` handlers receive it.
 * `body` is the exact bytes in base64 (for signature checks); `body_text` is the same body
 * as text, present only when it is valid UTF-8.
 */
export type HookJson = {
  id: string;
  channel: string;
  method: string;
  query: string;
  headers: Record<string, string>;
  content_type: string;
  body: string;
  body_text?: string;
  ip: string;
  created_at: string;
};

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function toHookJson(hook: RawHook): HookJson {
  const json: HookJson = {
    id: hook.id,
    channel: hook.channel,
    method: hook.method,
    query: hook.query,
    headers: hook.headers,
    content_type: mediaType(hook.headers),
    body: Buffer.from(hook.body).toString("base64"),
    ip: hook.ip,
    created_at: toRfc3339(hook.createdAt),
  };
  try {
    json.body_text = utf8.decode(hook.body);
  } catch {
    // Not UTF-8: the handler has the bytes in `body`.
  }
  return json;
}
