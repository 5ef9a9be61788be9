/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { firstCurlOf } from "../body";
import { CopyButton } from "./copy";
import { Scroller } from "./scroller";

let publicUrl: Promise<string> | undefined;
/** Where senders post: `[server] public_url` when set, else this page's origin. Read once per page. */
export function useBaseUrl(): string {
  const [base, setBase] = useState(location.origin);
  useEffect(() => {
    publicUrl ??= api<{ public_url: string | null }>("GET", "/info").then(
      (i) => (i.public_url ? i.public_url.replace(/\/$/, "") : location.origin),
      () => location.origin,
    );
    void publicUrl.then(setBase);
  }, []);
  return base;
}

/** The empty state: the first hook to send, with this server's real URL, ready to copy. */
export function FirstCurl({ channel }: { channel?: string }) {
  const base = useBaseUrl();
  const cmd = firstCurlOf(base, channel);
  return (
    <div class="empty">
      <h2>No hooks yet</h2>
      <p>Point a webhook at this server, or send the first one yourself. It shows up here within a moment.</p>
      <div class="copyable">
        <Scroller label="First hook">
          <pre>{cmd}</pre>
        </Scroller>
        <CopyButton text={cmd} label="Copy the curl command" />
      </div>
      <p class="hint">
        Any channel name works: <code>{base}/?channel=NAME</code> creates the channel with its first hook.
      </p>
    </div>
  );
}
