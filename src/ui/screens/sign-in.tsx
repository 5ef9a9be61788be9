/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { api, type Me } from "../api";
import { Mark } from "../parts/mark";
import { Notice } from "../parts/notice";

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    try {
      onSignedIn(await api<Me>("POST", "/session", { email: String(form.get("email")), password: String(form.get("password")) }));
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <form class="card sign-in" onSubmit={submit}>
      <h1 class="brand">
        <Mark /> Mailroom
      </h1>
      <label>
        E-mail
        <input name="email" type="email" autocomplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autocomplete="current-password" required />
      </label>
      <Notice error={error} />
      <button type="submit" class="primary">
        Sign in
      </button>
    </form>
  );
}
