/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Me, type TAccount } from "../api";
import { link } from "../router";
import { useConfirm } from "../parts/dialog";
import { Notice } from "../parts/notice";

export const money = (dollars: number) => `${dollars < 0 ? "-" : ""}$${Math.abs(dollars).toFixed(2)}`;

/** Tabs shared by the translation screens. */
export function TranslationNav({ current }: { current: "accounts" | "queue" }) {
  return (
    <nav class="actions" aria-label="Translation screens">
      <a href="/ui/translation" onClick={link} aria-current={current === "accounts" ? "page" : undefined}>
        Accounts
      </a>
      <a href="/ui/translation/queue" onClick={link} aria-current={current === "queue" ? "page" : undefined}>
        Translator queue
      </a>
    </nav>
  );
}

/** The translation service's accounts (balance, reserved, overdraft) and, for admins, the maintenance switch. */
export function TranslationAccounts({ me }: { me: Me }) {
  const [accounts, setAccounts] = useState<TAccount[] | null>(null);
  const [maintenance, setMaintenance] = useState<boolean | null>(null);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [ask, asking] = useConfirm();
  useEffect(() => {
    api<TAccount[]>("GET", "/translate/accounts").then(setAccounts, (e) => setError(e.message));
    api<{ maintenance: boolean }>("GET", "/translate/maintenance").then(
      (m) => setMaintenance(m.maintenance),
      () => undefined,
    );
  }, []);
  async function toggle() {
    const next = !maintenance;
    if (next && !(await ask("Switch maintenance on?", "Customers and translators get 503 until it is switched off.", "Switch maintenance on"))) return;
    try {
      setMaintenance((await api<{ maintenance: boolean }>("PUT", "/translate/maintenance", { maintenance: next })).maintenance);
      setError("");
      setNote(next ? "Maintenance is on." : "Maintenance is off.");
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <section>
      <h1>Translation</h1>
      {asking}
      <TranslationNav current="accounts" />
      <Notice error={error} note={note} />
      {maintenance !== null && (
        <p>
          Maintenance: <strong>{maintenance ? "on (customers and translators get 503)" : "off"}</strong>{" "}
          {me.role === "admin" && <button onClick={toggle}>{maintenance ? "Switch maintenance off" : "Switch maintenance on"}</button>}
        </p>
      )}
      <div class="scroll">
        <table class="cards" aria-label="Accounts">
          <thead>
            <tr>
              <th>Account</th>
              <th>Balance</th>
              <th>Reserved</th>
              <th>Overdraft</th>
            </tr>
          </thead>
          <tbody>
            {(accounts ?? []).map((a) => (
              <tr key={a.id}>
                <td data-label="Account">
                  <a href={`/ui/translation/accounts/${a.id}`} onClick={link}>
                    Account {a.id}
                  </a>
                </td>
                <td data-label="Balance">{money(a.balance)}</td>
                <td data-label="Reserved">{money(a.reserved)}</td>
                <td data-label="Overdraft">{a.balance_overdraft_allowed ? "allowed" : "no"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {accounts?.length === 0 && <p class="muted">No account: add [[translate.accounts]] to the config file.</p>}
    </section>
  );
}
