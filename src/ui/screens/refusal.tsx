/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { CopyButton } from "../parts/copy";
import { KvTable, queryRows } from "../parts/kv-table";
import { Loading } from "../parts/notice";
import { Time } from "../parts/time";
import { link } from "../router";
import { RefusalStatus, type RefusalRow } from "./refusals";
import { visible } from "../format";

type Detail = RefusalRow & { query?: string; headers?: Record<string, string> };

/**
 * One refused request: why, and the request's query and headers (credentials and signatures
 * redacted by the server). `admin`: "Diagnose again" is an admin's (a member would get 403).
 */
export function RefusalScreen({ id, admin }: { id: string; admin: boolean }) {
  const [r, setR] = useState<Detail | undefined>();
  const [error, setError] = useState("");
  const [again, setAgain] = useState<{ busy: boolean; error: string }>({ busy: false, error: "" });
  /** Works the diagnosis out again from the request saved with the refusal (admins only). */
  const diagnoseAgain = () => {
    setAgain({ busy: true, error: "" });
    api<Detail>("POST", `/refusals/${encodeURIComponent(id)}/diagnose`).then(
      (d) => {
        setR(d);
        setAgain({ busy: false, error: "" });
      },
      (e) => setAgain({ busy: false, error: e.message }),
    );
  };
  useEffect(() => {
    api<Detail>("GET", `/refusals/${encodeURIComponent(id)}`).then(setR, (e) => setError(e.message));
  }, [id]);
  const back = (
    <p>
      <a href="/ui/refusals" onClick={link}>
        ← Refusals
      </a>
    </p>
  );
  if (!r)
    return (
      <section>
        {back}
        <Loading error={error} />
      </section>
    );
  const headers = Object.entries(r.headers ?? {});
  return (
    <section>
      {back}
      <div class="hook-head">
        <h1>
          {r.method} {r.kind === "handshake" ? "handshake answered" : "refused"} on {visible(r.channel) || "no channel"}
        </h1>
        <RefusalStatus r={r} />
      </div>
      <div class="hook-sub">
        <span>
          <Time at={r.created_at} />
        </span>
        <span>from {r.ip}</span>
        <span>{r.guard ? `by guard ${r.guard}` : "by Mailroom itself"}</span>
      </div>
      <h2>Reason</h2>
      <p class="wrap">{visible(r.reason)}</p>
      {r.diagnosis && (
        <>
          <h2>Why the signature failed</h2>
          <p class="wrap">
            {visible(r.diagnosis.message)}{" "}
            <span class="muted">
              ({r.diagnosis.cause}
              {r.diagnosis.tried.length > 0 && `; tried ${r.diagnosis.tried.join(", ")}`})
            </span>
          </p>
        </>
      )}
      {admin && r.kind === "refused" && r.status === 401 && r.guard && (
        <p>
          <button type="button" onClick={diagnoseAgain} disabled={again.busy}>
            Diagnose again
          </button>{" "}
          {again.error && (
            <span class="error" role="alert">
              {visible(again.error)}
            </span>
          )}
        </p>
      )}
      <div class="section-head">
        <h2>Headers</h2>
        <CopyButton text={headers.map(([k, v]) => `${k}: ${v}`).join("\n")} label="Copy the headers" />
      </div>
      <p class="hint">
        Credentials (authorization, tokens, API keys, the channel's guard secrets) and signatures show as [redacted] and cookies are left out; the diagnosis
        above says what is wrong with a signature.
      </p>
      <KvTable label="Headers" rows={headers} empty="No headers were kept." />
      <h2>Query</h2>
      <KvTable label="Query" rows={queryRows(r.query ?? "")} empty="No query string." />
    </section>
  );
}
