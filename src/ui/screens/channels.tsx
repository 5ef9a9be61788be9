/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Channel, type Me } from "../api";
import { link } from "../router";
import { useStream } from "../live";
import { ChannelExtras } from "./channel-extras";
import { useConfirm } from "../parts/dialog";
import { RelayStatus } from "./relay-status";
import { Notice } from "../parts/notice";
import { setWatching, useUnread, watched } from "../unread";

/** The counts of a channel's hooks by status, as columns; the optional ones are left out on narrow screens. */
const STATS = [
  ["pending", "Pending", false],
  ["handled", "Handled", true],
  ["failed", "Failed", false],
  ["discarded", "Discarded", true],
] as const;

export function Channels({ me }: { me: Me }) {
  const [channels, setChannels] = useState<Channel[]>([]);
  const [base, setBase] = useState(location.origin);
  const [error, setError] = useState("");
  const [ask, asking] = useConfirm();
  const unread = useUnread();
  // The channels whose new hooks this browser notifies of (asked for permission on the first click).
  const [watching, setWatched] = useState(() => watched(me.email));
  const watch = (name: string, on: boolean) =>
    setWatching(me.email, name, on).then(
      (now) => (setWatched(now), setError("")),
      (e) => setError((e as Error).message),
    );
  const load = () => api<Channel[]>("GET", "/channels").then(setChannels, (e) => setError(e.message));
  useEffect(() => {
    void load();
    api<{ public_url: string | null }>("GET", "/info").then(
      (i) => i.public_url && setBase(i.public_url.replace(/\/$/, "")),
      () => undefined,
    );
  }, []);
  useStream(
    {},
    {
      channel: (c) => setChannels((all) => upsert(all, c as Channel)),
      hookDeleted: () => undefined,
      reset: load,
    },
    [],
  );
  async function act(c: Channel, what: "pause" | "resume" | "delete") {
    if (what === "delete") {
      const hooks = Object.values(c.stats).reduce((a, b) => a + BigInt(b), 0n);
      const text = `Its ${hooks} hook(s) and their events go for good. A sender's next hook creates the channel again.`;
      if (!(await ask(`Delete channel ${c.name}?`, text, "Delete the channel"))) return;
    }
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
      <Notice error={error} />
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
              {STATS.map(([status, label, optional]) => (
                <th key={status} class={optional ? "num opt" : "num"}>
                  {label}
                </th>
              ))}
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
                    {(unread.channels[c.name] ?? 0) > 0 && (
                      <a class="badge badge-unread" href={`/ui/hooks?channel=${c.name}&q=is%3Aunread`} onClick={link}>
                        {unread.channels[c.name]} unread
                      </a>
                    )}
                    <br />
                    <button
                      type="button"
                      class="small"
                      aria-pressed={watching.includes(c.name) ? "true" : "false"}
                      aria-label={`Notify me of new hooks in ${c.name}`}
                      title="A browser notification for each hook caught in this channel while the dashboard is open"
                      onClick={() => watch(c.name, !watching.includes(c.name))}
                    >
                      Notify me
                    </button>
                  </td>
                  <td data-label="URL" class="url">
                    <code title={url}>?channel={c.name}</code>{" "}
                    <button type="button" aria-label={`Copy URL of ${c.name}`} onClick={() => navigator.clipboard?.writeText(url)}>
                      Copy
                    </button>
                  </td>
                  {STATS.map(([status, label, optional]) => (
                    <td key={status} data-label={label} class={optional ? "num opt" : "num"}>
                      {c.stats[status]}
                    </td>
                  ))}
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
                    {c.paused ? (
                      <button type="button" onClick={() => act(c, "resume")}>
                        Resume
                      </button>
                    ) : (
                      <button type="button" onClick={() => act(c, "pause")}>
                        Pause
                      </button>
                    )}
                    <button type="button" aria-label={`Delete ${c.name}`} onClick={() => act(c, "delete")}>
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
      {asking}
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
