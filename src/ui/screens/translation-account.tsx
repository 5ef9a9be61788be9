/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, type Me, type TAccountDetail } from "../api";
import { link } from "../router";
import { money, TranslationNav } from "./translation";
import { Time } from "../parts/time";
import { Loading, Notice } from "../parts/notice";
import { visible } from "../format";

/** One account: its money, its ledger (newest first), its orders; admins top up or set the balance. */
export function TranslationAccount({ id, me }: { id: string; me: Me }) {
  const [detail, setDetail] = useState<TAccountDetail | undefined>();
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const ask = useLatest(id);
  const load = () => {
    const answer = ask();
    return api<TAccountDetail>("GET", `/translate/accounts/${id}`).then(
      (d) => answer.take() && (setDetail(d), setError("")),
      (e) => answer.take() && setError(e.message),
    );
  };
  // Another account: nothing of the one before stays on the screen meanwhile.
  useEffect(() => (setDetail(undefined), setError(""), void load()), [id]);
  async function change(e: Event, what: "top-up" | "balance") {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const value = Number(new FormData(formEl).get("dollars"));
    try {
      if (what === "top-up") await api("POST", `/translate/accounts/${id}/top-up`, { amount: value });
      else await api("PUT", `/translate/accounts/${id}/balance`, { balance: value });
      formEl.reset();
      setError("");
      setNote(what === "top-up" ? `Topped up ${money(value)}.` : `Balance set to ${money(value)}.`);
      await load();
    } catch (err) {
      setNote("");
      setError((err as Error).message);
    }
  }
  if (!detail)
    return (
      <section>
        <TranslationNav current="accounts" />
        <Loading error={error} />
      </section>
    );
  const a = detail.account;
  return (
    <section>
      <TranslationNav current="accounts" />
      <h1>Account {a.id}</h1>
      <Notice error={error} note={note} />
      <div class="scroll">
        <table aria-label="Account">
          <tbody>
            <tr>
              <th>Balance</th>
              <td>{money(a.balance)}</td>
            </tr>
            <tr>
              <th>Reserved</th>
              <td>{money(a.reserved)}</td>
            </tr>
            <tr>
              <th>Overdraft</th>
              <td>{a.balance_overdraft_allowed ? "allowed" : "no"}</td>
            </tr>
            <tr>
              <th>Ledger</th>
              <td>{detail.consistent ? "consistent with balance, reserved and unpaid orders" : <span class="error">inconsistent</span>}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {me.role === "admin" && (
        <div class="actions">
          <form class="actions" onSubmit={(e) => change(e, "top-up")}>
            <label>
              Top up (USD)
              <input name="dollars" type="number" step="0.01" min="0.01" required />
            </label>
            <button type="submit">Top up</button>
          </form>
          <form class="actions" onSubmit={(e) => change(e, "balance")}>
            <label>
              Set balance (USD)
              <input name="dollars" type="number" step="0.01" required />
            </label>
            <button type="submit">Set balance</button>
          </form>
        </div>
      )}
      <h2>Orders</h2>
      {detail.orders.length === 0 ? (
        <p class="muted">No order.</p>
      ) : (
        <div class="scroll">
          <table class="cards" aria-label="Orders">
            <thead>
              <tr>
                <th>Order</th>
                <th>Status</th>
                <th>Languages</th>
                <th>Price</th>
                <th>Text</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {detail.orders.map((o) => (
                <tr key={o.id}>
                  <td data-label="Order">
                    <a href={`/ui/translation/orders/${o.id}`} onClick={link}>
                      #{o.id}
                    </a>
                  </td>
                  <td data-label="Status">{o.status}</td>
                  <td data-label="Languages">
                    {o.source_language} → {o.target_language}
                  </td>
                  <td data-label="Price">{money(o.price ?? 0)}</td>
                  <td data-label="Text">{visible(o.snippet)}</td>
                  <td data-label="Created">
                    <Time at={o.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Ledger</h2>
      <div class="scroll">
        <table class="cards" aria-label="Ledger">
          <thead>
            <tr>
              <th>When</th>
              <th>Entry</th>
              <th>Order</th>
              <th>Balance change</th>
              <th>Reserved change</th>
              <th>Balance</th>
              <th>Reserved</th>
              <th>Actor</th>
            </tr>
          </thead>
          <tbody>
            {detail.entries.map((e) => (
              <tr key={e.id}>
                <td data-label="When">
                  <Time at={e.time} />
                </td>
                <td data-label="Entry">{e.entry}</td>
                <td data-label="Order">
                  {e.order_id === undefined ? (
                    ""
                  ) : (
                    <a href={`/ui/translation/orders/${e.order_id}`} onClick={link}>
                      #{e.order_id}
                    </a>
                  )}
                </td>
                <td data-label="Balance change">{money(e.balance_change)}</td>
                <td data-label="Reserved change">{money(e.reserved_change)}</td>
                <td data-label="Balance">{money(e.balance)}</td>
                <td data-label="Reserved">{money(e.reserved)}</td>
                <td data-label="Actor">{e.actor}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
