/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Me, type TOrderSummary } from "../api";
import { link, navigate } from "../router";
import { money, TranslationNav } from "./translation";
import { Notice } from "../parts/notice";
import { visible } from "../format";

/** The translator's queue of the signed-in user: open orders (QUEUE, REVISION) and those they hold or completed. */
export function TranslationQueue({ me }: { me: Me }) {
  const [orders, setOrders] = useState<TOrderSummary[] | null>(null);
  const [error, setError] = useState("");
  const load = () => api<TOrderSummary[]>("GET", "/translate/queue").then(setOrders, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function accept(id: number) {
    try {
      await api("POST", `/translate/orders/${id}/accept`);
      navigate(`/ui/translation/orders/${id}`);
    } catch (e) {
      setError((e as Error).message);
      await load();
    }
  }
  return (
    <section>
      <h1>Translation</h1>
      <TranslationNav current="queue" />
      <p class="muted">
        You work as translator <strong>{me.email}</strong>.
      </p>
      <Notice error={error} />
      <div class="scroll">
        <table class="cards" aria-label="Queue">
          <thead>
            <tr>
              <th>Order</th>
              <th>Status</th>
              <th>Languages</th>
              <th>Volume</th>
              <th>Text</th>
              <th>Translator</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {(orders ?? []).map((o) => (
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
                <td data-label="Volume">{o.volume}</td>
                <td data-label="Text">{visible(o.snippet)}</td>
                <td data-label="Translator">{o.translator ?? ""}</td>
                <td>
                  {(o.status === "QUEUE" || o.status === "REVISION") && (
                    <button aria-label={`Accept order ${o.id}`} onClick={() => accept(o.id)}>
                      Accept
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {orders?.length === 0 && <p class="muted">Nothing to translate.</p>}
    </section>
  );
}
