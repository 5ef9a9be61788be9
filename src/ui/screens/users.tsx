/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Me, type User } from "../api";
import { useConfirm } from "../parts/dialog";
import { Notice } from "../parts/notice";

export function Users({ me }: { me: Me }) {
  const [users, setUsers] = useState<User[]>([]);
  const [error, setError] = useState("");
  const [ask, asking] = useConfirm();
  /** The user whose channels are being edited. */
  const [editing, setEditing] = useState("");
  const load = () => api<User[]>("GET", "/users").then(setUsers, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function add(e: Event) {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    try {
      const channels = patterns(String(form.get("channels") ?? ""));
      await api("POST", "/users", {
        email: String(form.get("email")),
        role: String(form.get("role")),
        password: String(form.get("password")),
        ...(channels ? { channels } : {}),
      });
      formEl.reset();
      setError("");
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function limit(e: Event, u: User) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    try {
      await api("PUT", `/users/${encodeURIComponent(u.email)}/channels`, { channels: patterns(String(form.get("channels") ?? "")) });
      setEditing("");
      setError("");
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function remove(u: User) {
    if (!(await ask(`Remove ${u.email}?`, "Their sessions end at once.", "Remove the user"))) return;
    await api("DELETE", `/users/${encodeURIComponent(u.email)}`).then(load, (e) => setError(e.message));
  }
  return (
    <section>
      <h1>Users</h1>
      {asking}
      <Notice error={error} />
      <div class="scroll">
        <table class="cards" aria-label="Users">
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Role</th>
              <th>Channels</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.email}>
                <td data-label="E-mail">{u.email}</td>
                <td data-label="Role">{u.role}</td>
                <td data-label="Channels">
                  {editing === u.email ? (
                    <form class="inline" onSubmit={(e) => limit(e, u)}>
                      <label>
                        Channels of {u.email}
                        <input name="channels" defaultValue={u.channels?.join(", ") ?? ""} placeholder="every channel" />
                      </label>
                      <button type="submit">Save channels</button>
                      <button type="button" onClick={() => setEditing("")}>
                        Cancel
                      </button>
                    </form>
                  ) : (
                    <>
                      {u.channels ? u.channels.join(", ") : <span class="muted">every channel</span>}{" "}
                      {!u.read_only && u.role === "member" && (
                        <button type="button" onClick={() => setEditing(u.email)} title={`Edit the channels of ${u.email}`}>
                          Edit channels
                        </button>
                      )}
                    </>
                  )}
                </td>
                <td>{u.read_only ? <span class="muted">config file</span> : u.email !== me.email && <button onClick={() => remove(u)}>Remove</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="card" onSubmit={add}>
        <h2>Add a user</h2>
        <label>
          E-mail
          <input name="email" type="email" required />
        </label>
        <label>
          Role
          <select name="role">
            <option value="member">member</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <label>
          Password
          <input name="password" type="password" minLength={8} required autocomplete="new-password" />
        </label>
        <label>
          Channels (a member only; empty: every channel)
          <input name="channels" placeholder="stripe-*, github" />
        </label>
        <button type="submit">Add user</button>
      </form>
    </section>
  );
}

/** Channel patterns as typed ("stripe-*, github"), or null for none (every channel). */
function patterns(text: string): string[] | null {
  const list = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return list.length > 0 ? list : null;
}
