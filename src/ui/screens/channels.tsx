/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Channel, type Me } from "../api";
import { link } from "../router";
import { useStream } from "../live";
import { ChannelExtras } from "./channel-extras";
import { Dialog } from "../parts/dialog";
import { RelayStatus } from "./relay-status";

export function Channels({ me }: { me: Me }) {
  const [channels, setChannels] = useState<Channel[]>([]);
  const [base, setBase] = useState(location.origin);
  const [error, setError] = useState("");
  const [deleting, setDeleting] = useState<Channel | undefined>();
  const load = () => api<Channel[]>("GET", "/channels").then(setChannels, (e) => setError(e.message));
  useEffect(() => {
    void load();
    api<{ public_url: string | null }>("GET", "/info").then(
      (i) => i.public_url && setBase(i.public_url.replace(/\/$/, "")),
      () => undefined,
    );
  }, []);
  useStream(
    "",
    {
      channel: (c) => setChannels((all) => upsert(all, c as Channel)),
      hookDeleted: () => undefined,
      reset: load,
    },
    [],
  );
  async function act(c: Channel, what: "pause" | "resume" | "delete") {
    setDeleting(undefined);
    try {
      if (what === "delete") {
        await api("DELETE", `/channels/${c.name}`);
        await load();
      } else {
        const changed = await api<Channel>("POST", `/channels/${c.name}/${what}`);
        setChannels((all) => upsert(all, changed));
      }
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <section>
      <h1>Channels</h1>
      <RelayStatus />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {channels.length > 0 && (
        <p class="muted">
          Senders post to <code>{base}/?channel=NAME</code>; a channel's Copy button gives its whole URL.
        </p>
      )}
      <div class="scroll">
        <table class="cards">
          <thead>
            <tr>
              <th>Channel</th>
              <th>URL</th>
              <th class="num">Pending</th>
              <th class="num opt">Handled</th>
              <th class="num">Failed</th>
              <th class="num opt">Discarded</th>
              <th class="opt">Guards</th>
              <th>Senders get</th>
              <th>State</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => {
              const url = `${base}/?channel=${c.name}`;
              return (
                <tr key={c.name}>
                  <td data-label="Channel" class="name">
                    <a href={`/ui/hooks?channel=${c.name}`} title={c.name}>
                      {c.name}
                    </a>
                  </td>
                  <td data-label="URL" class="url">
                    <code title={url}>?channel={c.name}</code>{" "}
                    <button aria-label={`Copy URL of ${c.name}`} onClick={() => navigator.clipboard?.writeText(url)}>
                      Copy
                    </button>
                  </td>
                  <td data-label="Pending" class="num">
                    {c.stats.pending}
                  </td>
                  <td data-label="Handled" class="num opt">
                    {c.stats.handled}
                  </td>
                  <td data-label="Failed" class="num">
                    {c.stats.failed}
                  </td>
                  <td data-label="Discarded" class="num opt">
                    {c.stats.discarded}
                  </td>
                  <td data-label="Guards" class="opt">
                    {c.guards.join(", ") || <span class="muted">none</span>}
                  </td>
                  <td data-label="Senders get">
                    <ChannelExtras name={c.name} />
                  </td>
                  <td data-label="State">
                    <span class={`status status-${c.paused ? "paused" : "catching"}`}>{c.paused ? "paused" : "catching"}</span>
                  </td>
                  <td class="row-actions">
                    {c.paused ? <button onClick={() => act(c, "resume")}>Resume</button> : <button onClick={() => act(c, "pause")}>Pause</button>}
                    <button aria-label={`Delete ${c.name}`} onClick={() => setDeleting(c)}>
                      Delete
                    </button>
                    {me.role === "admin" && (
                      <a href={`/ui/channels/${c.name}/handlers`} onClick={link} aria-label={`Forward handlers of ${c.name}`}>
                        Forward handlers
                      </a>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {deleting && (
        <Dialog title={`Delete channel ${deleting.name}?`} onClose={() => setDeleting(undefined)}>
          <p>
            Its{" "}
            {Object.values(deleting.stats)
              .reduce((a, b) => a + BigInt(b), 0n)
              .toString()}{" "}
            hook(s) and their events go for good. A sender's next hook creates the channel again.
          </p>
          <div class="actions">
            <button type="button" class="danger solid" onClick={() => act(deleting, "delete")}>
              Delete the channel
            </button>
            <button type="button" onClick={() => setDeleting(undefined)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
      {channels.length === 0 && (
        <p class="muted">
          No channel yet: send a hook to <code>{base}/?channel=NAME</code>.
        </p>
      )}
    </section>
  );
}

function upsert(all: Channel[], c: Channel): Channel[] {
  const rest = all.filter((x) => x.name !== c.name);
  return [...rest, c].sort((a, b) => a.name.localeCompare(b.name));
}
