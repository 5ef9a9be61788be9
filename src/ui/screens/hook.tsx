/** @jsxImportSource preact */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, type Attempt, type Channel, type Hook, type HookExtended } from "../api";
import { bytesOf } from "../body";
import { useStream } from "../live";
import { link } from "../router";
import { ContractBadge } from "../parts/contract-badge";
import { CopyButton } from "../parts/copy";
import { ShareButton } from "../parts/share";
import { KvTable, queryRows } from "../parts/kv-table";
import { Size } from "../parts/size";
import { Time } from "../parts/time";
import { EditSend } from "./edit-send";
import { HookActions } from "./hook-actions";
import { HookBody } from "./hook-body";
import { HookHistory } from "./hook-history";
import { HookTags } from "./hook-tags";
import { Loading, Notice } from "../parts/notice";
import { visible } from "../format";

/** One hook: what its sender sent (as text, never as HTML), its guards, attempts and events, and actions. */
export function HookDetail({
  id,
  onClose,
  newer,
  older,
  open,
}: {
  id: string;
  onClose: () => void;
  newer?: string;
  older?: string;
  open: (id: string) => void;
}) {
  const [hook, setHook] = useState<HookExtended | undefined>();
  const [attempts, setAttempts] = useState<Attempt[]>([]);
  const [guards, setGuards] = useState<string[] | undefined>();
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState("");
  // Moving from hook to hook (j, k), a late answer of the one before is not shown.
  const askHook = useLatest(id);
  const askAttempts = useLatest(id);
  const load = () => {
    const hookAnswer = askHook();
    const attemptsAnswer = askAttempts();
    // The event type and the source are extension fields: the API answers them when asked.
    api<HookExtended>("GET", `/hooks/${id}?include=extensions`).then(
      (h) => hookAnswer.take() && (setHook(h), setError("")),
      (e) => hookAnswer.take() && setError(e.message),
    );
    api<Attempt[]>("GET", `/hooks/${id}/attempts`).then(
      (a) => attemptsAnswer.take() && setAttempts(a),
      () => undefined,
    );
  };
  useEffect(load, [id]);
  // Opening a hook marks it read for this user (docs/tags.md); the unread counts are read again.
  useEffect(() => {
    api("POST", `/hooks/${id}/read`).then(
      () => (dispatchEvent(new CustomEvent("hook-read", { detail: id })), dispatchEvent(new Event("unread-changed"))),
      () => undefined,
    );
  }, [id]);
  useEffect(() => {
    if (hook)
      api<Channel>("GET", `/channels/${hook.channel}`).then(
        (c) => setGuards(c.guards),
        () => undefined,
      );
  }, [hook?.channel]);
  // Only this hook's events, as summaries: this screen reads its hook again when it changes.
  // A burst past the stream's newest hooks may have left this one's change out: read again, at most every 2 s.
  const again = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(again.current), [id]);
  useStream(
    { hook: id },
    {
      hook: (h) => (h as Hook).id === id && load(),
      reset: load,
      skipped: () => void (again.current ??= setTimeout(() => ((again.current = undefined), load()), 2000)),
    },
    [id],
  );
  // Decoded once per body, not on every render (a 1 MB body costs tens of ms each time).
  const bytes = useMemo(() => bytesOf(hook?.body ?? ""), [hook?.body]);
  if (!hook) return <Loading error={error} />;
  const headerRows = Object.entries(hook.headers);
  const headerText = headerRows.map(([k, v]) => `${k}: ${v}`).join("\n");
  return (
    <article data-hook={hook.id}>
      <p class="only-narrow">
        <a href="/ui/hooks" onClick={(e) => (e.preventDefault(), onClose())}>
          ← Hooks
        </a>
      </p>
      <div class="hook-head">
        <h1>
          {hook.channel}
          {hook.event_type && <span class="muted"> · {visible(hook.event_type)}</span>}
        </h1>
        <span class={`status status-${hook.status}`}>{hook.status}</span>
        {hook.contract && <ContractBadge contract={hook.contract} />}
        <span class="pager">
          <button type="button" disabled={!newer} onClick={() => newer && open(newer)} title="k">
            ↑ Newer
          </button>
          <button type="button" disabled={!older} onClick={() => older && open(older)} title="j">
            ↓ Older
          </button>
        </span>
      </div>
      <div class="hook-sub">
        <span>
          <code>{hook.id}</code> <CopyButton text={hook.id} label="Copy the hook id" />
        </span>
        <ShareButton what={{ hook: hook.id }} label="Share this hook (a read-only link)" />
        <span>
          <span class="method">{hook.method}</span> from {hook.ip}
        </span>
        <span>
          caught <Time at={hook.created_at} />
        </span>
        {hook.finalized_at && (
          <span>
            {hook.status} <Time at={hook.finalized_at} />
          </span>
        )}
        <span>
          <Size bytes={bytes.length} /> {hook.content_type || "no content type"}
        </span>
        {hook.source_id && (
          <span>
            sent from{" "}
            <a href={`/ui/hooks/${hook.source_id}${location.search}`} onClick={link}>
              {hook.source_id}
            </a>
          </span>
        )}
      </div>
      <HookTags id={hook.id} tags={hook.tags ?? []} onTags={(tags) => setHook((h) => h && { ...h, tags })} />
      <HookActions
        hook={hook}
        onChanged={(h) => (setHook(withExtensions(h, hook)), setError(""))}
        onDeleted={onClose}
        onEdit={() => setEditing(true)}
        onError={setError}
      />
      <Notice error={error} />
      {editing && <EditSend hook={hook} onClose={() => setEditing(false)} />}
      {hook.contract && hook.contract.violations.length > 0 && (
        <section class="contract-violations" aria-label="Schema violations">
          <h2>Schema violations</h2>
          <ul>
            {hook.contract.violations.map((v) => (
              <li>
                <code class="json-path">{visible(v.path || "/")}</code> {visible(v.message)}
              </li>
            ))}
          </ul>
        </section>
      )}
      <HookBody hook={hook} bytes={bytes} />
      <div class="section-head">
        <h2>Headers</h2>
        <CopyButton text={headerText} label="Copy the headers" />
      </div>
      <KvTable label="Headers" rows={headerRows} empty="No headers." />
      <h2>Query</h2>
      <KvTable label="Query" rows={queryRows(hook.query)} empty="No query string." />
      <h2>Guards</h2>
      {guards === undefined ? null : guards.length === 0 ? (
        <p class="muted">The channel has no guard: anyone with its URL can send to it.</p>
      ) : (
        <p class="guards-passed">
          Passed every guard of the channel:{" "}
          {guards.map((g) => (
            <span class="status status-handled">✓ {g}</span>
          ))}
        </p>
      )}
      <HookHistory hook={hook} attempts={attempts} />
    </article>
  );
}

/** A transition's answer (the spec's Hook) with the extension fields shown before: a transition changes none of them. */
function withExtensions(h: Hook, before: HookExtended): HookExtended {
  return {
    ...h,
    event_type: before.event_type,
    ...(before.source_id ? { source_id: before.source_id } : {}),
    ...(before.contract ? { contract: before.contract } : {}),
    // Tags change only by their own requests (HookTags), never by a transition.
    ...(before.tags?.length ? { tags: before.tags } : {}),
  };
}
