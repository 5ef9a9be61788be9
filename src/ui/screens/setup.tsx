/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type Me } from "../api";
import { link } from "../router";
import { Notice } from "../parts/notice";

/** The password rule the server applies (dashboard/users.ts MIN_PASSWORD), stated before it is broken. */
const MIN_PASSWORD = 8;

/**
 * The first admin, from the one-time link printed at start-up (its token is the URL's fragment).
 * The page asks first whether the link is still good, and says at once when it is void or expired
 * instead of after the form is filled in.
 */
export function Setup({ onDone }: { onDone: (me: Me) => void }) {
  const token = location.hash.slice(1);
  const [status, setStatus] = useState<{ state: "checking" | "valid" } | { state: "void"; message: string; signIn: boolean }>({ state: "checking" });
  const [error, setError] = useState("");
  useEffect(() => {
    if (!token) return setStatus({ state: "void", message: "This link has no setup token: open the whole link Mailroom printed at start-up.", signIn: false });
    api("POST", "/setup/check", { token }).then(
      () => setStatus({ state: "valid" }),
      (err: Error) => setStatus({ state: "void", message: err.message, signIn: err instanceof ApiError && err.status === 409 }),
    );
  }, [token]);
  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    try {
      onDone(await api<Me>("POST", "/setup", { token, email: String(form.get("email")), password: String(form.get("password")) }));
    } catch (err) {
      setError((err as Error).message);
    }
  }
  if (status.state === "checking") return <p class="muted">Checking the setup link…</p>;
  if (status.state === "void") {
    return (
      <div class="card sign-in">
        <h1>Create the first admin</h1>
        <p class="error" role="alert">
          {status.message}
        </p>
        {status.signIn && (
          <a href="/ui/" onClick={link}>
            Sign in
          </a>
        )}
      </div>
    );
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
        <input name="password" type="password" autocomplete="new-password" minLength={MIN_PASSWORD} required aria-describedby="password-rule" />
      </label>
      <span class="hint" id="password-rule">
        At least {MIN_PASSWORD} characters.
      </span>
      <Notice error={error} />
      <button type="submit" class="primary">
        Create admin
      </button>
    </form>
  );
}
