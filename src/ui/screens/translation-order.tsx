/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Me, type TOrder } from "../api";
import { link } from "../router";
import { money, TranslationNav } from "./translation";
import { Time } from "../parts/time";
import { Loading, Notice } from "../parts/notice";
import { visible } from "../format";

/**
 * One order: its source and target text (as text, never HTML), money, times and comments. The
 * signed-in user, as a translator under their e-mail address, accepts an open order and completes
 * one they hold.
 */
export function TranslationOrder({ id, me }: { id: string; me: Me }) {
  const [order, setOrder] = useState<TOrder | undefined>();
  const [error, setError] = useState("");
  useEffect(() => void api<TOrder>("GET", `/translate/orders/${id}`).then(setOrder, (e) => setError(e.message)), [id]);
  async function act(path: string, body?: unknown) {
    try {
      setOrder(await api<TOrder>("POST", `/translate/orders/${id}/${path}`, body));
      setError("");
    } catch (e) {
      setError((e as Error).message);
    }
  }
  function complete(e: Event) {
    e.preventDefault();
    void act("complete", { target_text: String(new FormData(e.currentTarget as HTMLFormElement).get("target_text")) });
  }
  if (!order)
    return (
      <section>
        <TranslationNav current="queue" />
        <Loading error={error} />
      </section>
    );
  const open = order.status === "QUEUE" || order.status === "REVISION";
  const mine = order.status === "PROGRESS" && order.translator === me.email;
  return (
    <section>
      <TranslationNav current="queue" />
      <h1>
        Order #{order.id} <span class="status">{order.status}</span>
      </h1>
      <Notice error={error} />
      {open && (
        <div class="actions">
          <button onClick={() => act("accept")}>Accept as {me.email}</button>
        </div>
      )}
      <div class="scroll">
        <table aria-label="Order">
          <tbody>
            <tr>
              <th>Account</th>
              <td>
                <a href={`/ui/translation/accounts/${order.account_id}`} onClick={link}>
                  Account {order.account_id}
                </a>
              </td>
            </tr>
            <tr>
              <th>Languages</th>
              <td>
                {order.source_language} → {order.target_language}
              </td>
            </tr>
            <tr>
              <th>Resource</th>
              <td>{order.resource.type}</td>
            </tr>
            <tr>
              <th>Volume</th>
              <td>{order.volume} characters</td>
            </tr>
            <tr>
              <th>Price</th>
              <td>{money(order.price)}</td>
            </tr>
            <tr>
              <th>Context</th>
              <td>
                {Object.entries(order.context)
                  .map(([k, v]) => `${k}: ${v}`)
                  .join(", ") || <span class="muted">none</span>}
              </td>
            </tr>
            <tr>
              <th>Translator</th>
              <td>{order.translator ?? <span class="muted">none yet</span>}</td>
            </tr>
            <tr>
              <th>Created</th>
              <td>
                <Time at={order.created_at} />
              </td>
            </tr>
            <tr>
              <th>Accepted</th>
              <td>{order.accepted_at && <Time at={order.accepted_at} />}</td>
            </tr>
            <tr>
              <th>Completed</th>
              <td>{order.completed_at && <Time at={order.completed_at} />}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <h2>Source text</h2>
      <pre aria-label="Source text">{visible(order.source_text)}</pre>
      {order.target_text !== undefined && (
        <>
          <h2>Target text</h2>
          <pre aria-label="Target text">{order.target_text}</pre>
        </>
      )}
      {mine && (
        <form class="card" onSubmit={complete}>
          <label>
            Your translation (target text)
            <textarea name="target_text" rows={6} required />
          </label>
          <button type="submit">Complete</button>
        </form>
      )}
      <h2>Comments</h2>
      {order.comments.length === 0 ? (
        <p class="muted">No comment.</p>
      ) : (
        <div class="scroll">
          <table class="cards" aria-label="Comments">
            <thead>
              <tr>
                <th>When</th>
                <th>Role</th>
                <th>Text</th>
              </tr>
            </thead>
            <tbody>
              {order.comments.map((c) => (
                <tr key={c.id}>
                  <td data-label="When">
                    <Time at={c.time} />
                  </td>
                  <td data-label="Role">{c.role}</td>
                  <td data-label="Text">{c.text}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
