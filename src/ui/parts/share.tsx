/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { api } from "../api";
import { CopyButton } from "./copy";
import { Time } from "./time";

type Made = { url: string; expires_at: string };

/**
 * "Share": makes a read-only link (7 days) to a hook or a saved view and shows it with a copy
 * button; whoever opens it sees that alone, without signing in, until it expires or an admin revokes it.
 */
export function ShareButton({ what, label }: { what: { hook: string } | { view: string }; label: string }) {
  const [made, setMade] = useState<Made | undefined>();
  const [error, setError] = useState("");
  async function share() {
    try {
      const link = await api<Made>("POST", "/share-links", what);
      setMade({ ...link, url: `${location.origin}${link.url}` });
      setError("");
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <span class="share">
      {!made && (
        <button type="button" onClick={share} aria-label={label}>
          Share
        </button>
      )}
      {made && (
        <span role="status">
          <label>
            Share link <input readOnly value={made.url} size={30} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          </label>{" "}
          <CopyButton text={made.url} label="Copy the share link" />{" "}
          <span class="muted">
            read-only, expires <Time at={made.expires_at} />
          </span>
        </span>
      )}
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
