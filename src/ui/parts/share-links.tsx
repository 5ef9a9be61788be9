/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { useConfirm } from "./dialog";
import { Time } from "./time";

/** A share link as GET /ui/api/share-links lists it (never its token). */
type ShareLink = { id: string; kind: "hook" | "view"; hook?: string; view?: string; created_by: string; created_at: string; expires_at: string };

/** The share links not expired (admins): what each shows, who made it, when it expires; Revoke ends it at once. */
export function ShareLinks() {
  const [links, setLinks] = useState<ShareLink[]>([]);
  const [error, setError] = useState("");
  const [ask, asking] = useConfirm();
  const load = () => api<ShareLink[]>("GET", "/share-links").then(setLinks, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function revoke(l: ShareLink) {
    if (!(await ask("Revoke this share link?", "Whoever has it gets “not found” from now on.", "Revoke the link"))) return;
    await api("DELETE", `/share-links/${encodeURIComponent(l.id)}`).then(load, (e) => setError(e.message));
  }
  return (
    <section class="card">
      <h2>Share links</h2>
      {asking}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {links.length === 0 ? (
        <p class="muted">No share links.</p>
      ) : (
        <div class="scroll">
          <table class="cards" aria-label="Share links">
            <thead>
              <tr>
                <th>Shows</th>
                <th>Made by</th>
                <th>Expires</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id}>
                  <td data-label="Shows">{l.kind === "hook" ? <a href={`/ui/hooks/${l.hook}`}>hook {l.hook}</a> : `view ${l.view}`}</td>
                  <td data-label="Made by">{l.created_by}</td>
                  <td data-label="Expires">
                    <Time at={l.expires_at} />
                  </td>
                  <td>
                    <button type="button" onClick={() => revoke(l)}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
