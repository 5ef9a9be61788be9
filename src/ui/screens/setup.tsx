/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { api, type Me } from "../api";

/** The first admin, from the one-time link printed at start-up (its token is the URL's fragment). */
export function Setup({ onDone }: { onDone: (me: Me) => void }) {
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    try {
      const token = location.hash.slice(1);
      onDone(await api<Me>("POST", "/setup", { token, email: String(form.get("email")), password: String(form.get("password")) }));
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <form class="card sign-in" onSubmit={submit}>
      <h1>Create the first admin</h1>
      <label>
        E-mail
        <input name="email" type="email" autocomplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autocomplete="new-password" minLength={8} required />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit">Create admin</button>
    </form>
  );
}
