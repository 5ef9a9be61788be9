/** @jsxImportSource preact */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, whenSignedOut, type Me } from "./api";
import { link, navigate, useLocation } from "./router";
import { SignIn } from "./screens/sign-in";
import { Setup } from "./screens/setup";
import { SharedPage } from "./screens/shared";
import { Channels } from "./screens/channels";
import { Hooks } from "./screens/hooks";
import { Refusals } from "./screens/refusals";
import { RefusalScreen } from "./screens/refusal";
import { Compare } from "./screens/compare";
import { Users } from "./screens/users";
import { ApiKeys } from "./screens/api-keys";
import { Guards } from "./screens/guards";
import { Notifiers } from "./screens/notifiers";
import { AlertRules } from "./screens/alert-rules";
import { ChannelHandlers } from "./screens/channel-handlers";
import { TranslationAccounts } from "./screens/translation";
import { TranslationAccount } from "./screens/translation-account";
import { TranslationOrder } from "./screens/translation-order";
import { TranslationQueue } from "./screens/translation-queue";
import { Issues, useOpenIssues } from "./screens/issues";
import { applyTheme, savedTheme, type ThemeChoice } from "./theme";
import { Mark } from "./parts/mark";
import { UnreadFeed, useUnread } from "./unread";

applyTheme(savedTheme());

/** System, light or dark; remembered in this browser. */
function ThemeSwitch() {
  const [choice, setChoice] = useState<ThemeChoice>(savedTheme);
  return (
    <select
      aria-label="Theme"
      value={choice}
      onChange={(e) => {
        const v = (e.target as HTMLSelectElement).value as ThemeChoice;
        applyTheme(v);
        setChoice(v);
      }}
    >
      <option value="system">System theme</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}

function App() {
  const url = useLocation();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    whenSignedOut(() => setMe(null));
    // 204 (undefined here) when nobody is signed in.
    api<Me | undefined>("GET", "/session").then(
      (m) => setMe(m ?? null),
      () => setMe(null),
    );
  }, []);
  const path = url.pathname.replace(/\/+$/, "");
  // On a phone the screens' links sit behind a Menu button (one row of header), closed again by each move.
  const [menu, setMenu] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  /** A screen's link chosen (the current one's too) closes the menu; focus goes back to its button, not to a hidden link. */
  const choose = (e: MouseEvent) => {
    if (menu) {
      setMenu(false);
      menuButton.current?.focus();
    }
    link(e);
  };
  useEffect(() => setMenu(false), [path]);
  const openIssues = useOpenIssues(Boolean(me));
  const unread = useUnread().total;
  if (path === "/ui/setup") return <Setup onDone={(m) => (setMe(m), navigate("/ui/hooks"))} />;
  // A share link's page: no sign-in, the link's token alone.
  const shareToken = /^\/ui\/share\/(mrl_[\w-]{43})$/.exec(path)?.[1];
  if (shareToken) return <SharedPage token={shareToken} />;
  if (me === undefined) return <p class="muted">Loading…</p>;
  if (me === null) return <SignIn onSignedIn={setMe} />;
  const nav = (href: string, label: string) => (
    <a href={href} onClick={choose} aria-current={path.startsWith(href) ? "page" : undefined}>
      {label}
    </a>
  );
  let screen;
  const adminOnly = (
    <p class="error" role="alert">
      Only an admin may see this screen.
    </p>
  );
  const hookId = /^\/ui\/hooks\/([0-9a-z]{26})$/.exec(path)?.[1];
  const accountId = /^\/ui\/translation\/accounts\/([1-9][0-9]{0,14})$/.exec(path)?.[1];
  const orderId = /^\/ui\/translation\/orders\/([1-9][0-9]{0,14})$/.exec(path)?.[1];
  const refusalId = /^\/ui\/refusals\/([0-9A-Za-z_-]{1,64})$/.exec(path)?.[1];
  const handlersOf = /^\/ui\/channels\/([a-z0-9_-]{1,64})\/handlers$/.exec(path)?.[1];
  if (hookId || path === "/ui/hooks" || path === "/ui") screen = <Hooks url={url} id={hookId} admin={me.role === "admin"} />;
  else if (handlersOf) screen = me.role === "admin" ? <ChannelHandlers channel={handlersOf} /> : adminOnly;
  else if (accountId) screen = <TranslationAccount id={accountId} me={me} />;
  else if (orderId) screen = <TranslationOrder id={orderId} me={me} />;
  else if (path === "/ui/translation/queue") screen = <TranslationQueue me={me} />;
  else if (path === "/ui/translation") screen = <TranslationAccounts me={me} />;
  else if (path === "/ui/compare") screen = <Compare url={url} />;
  else if (path === "/ui/channels") screen = <Channels me={me} />;
  else if (refusalId) screen = <RefusalScreen id={refusalId} admin={me.role === "admin"} />;
  else if (path === "/ui/refusals") screen = <Refusals url={url} />;
  else if (path === "/ui/issues") screen = <Issues url={url} />;
  else if (path === "/ui/users") screen = me.role === "admin" ? <Users me={me} /> : adminOnly;
  else if (path === "/ui/guards") screen = me.role === "admin" ? <Guards /> : adminOnly;
  else if (path === "/ui/notifiers") screen = me.role === "admin" ? <Notifiers /> : adminOnly;
  else if (path === "/ui/alerts") screen = me.role === "admin" ? <AlertRules /> : adminOnly;
  else if (path === "/ui/api-keys") screen = me.role === "admin" ? <ApiKeys /> : adminOnly;
  else screen = <Hooks url={url} />;
  async function signOut() {
    await api("DELETE", "/session").catch(() => undefined);
    setMe(null);
    navigate("/ui/", true);
  }
  return (
    <>
      <header class="top">
        <a class="brand" href="/ui/hooks" onClick={link}>
          <Mark />
          <span>Mailroom</span>
        </a>
        <button ref={menuButton} type="button" class="menu-button" aria-expanded={menu} aria-controls="screens" onClick={() => setMenu(!menu)}>
          Menu
          {unread + openIssues > 0 && (
            <span class={openIssues > 0 ? "badge" : "badge badge-unread"}>
              <span class="sr-only">, </span>
              {unread + openIssues > 999 ? "999+" : unread + openIssues}
              <span class="sr-only"> unread hooks and open issues</span>
            </span>
          )}
        </button>
        <nav id="screens" aria-label="Screens" class={menu ? "open" : undefined}>
          <a href="/ui/hooks" onClick={choose} aria-current={path.startsWith("/ui/hooks") ? "page" : undefined}>
            Hooks
            {unread > 0 && (
              <span class="badge badge-unread">
                <span class="sr-only">, </span>
                {unread > 999 ? "999+" : unread}
                <span class="sr-only"> unread</span>
              </span>
            )}
          </a>
          {nav("/ui/channels", "Channels")}
          {nav("/ui/refusals", "Refusals")}
          <a href="/ui/issues" onClick={choose} aria-current={path.startsWith("/ui/issues") ? "page" : undefined}>
            Issues
            {openIssues > 0 && (
              <span class="badge">
                <span class="sr-only">, </span>
                {openIssues > 99 ? "99+" : openIssues}
                <span class="sr-only"> open</span>
              </span>
            )}
          </a>
          {nav("/ui/translation", "Translation")}
          {me.role === "admin" && nav("/ui/guards", "Guards")}
          {me.role === "admin" && nav("/ui/alerts", "Alert rules")}
          {me.role === "admin" && nav("/ui/notifiers", "Notifiers")}
          {me.role === "admin" && nav("/ui/api-keys", "API keys")}
          {me.role === "admin" && nav("/ui/users", "Users")}
        </nav>
        <div class={menu ? "who open" : "who"}>
          <ThemeSwitch />
          <span class="muted email">
            {me.email} ({me.role})
          </span>
          {me.auth !== "none" && (
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          )}
        </div>
      </header>
      {me.auth === "none" && (
        <p class="no-auth" role="note">
          No sign-in: <code>[dashboard] auth = "none"</code>. Anyone who can reach this machine's loopback address uses this dashboard as an admin.
        </p>
      )}
      <UnreadFeed email={me.email} />
      <main>{screen}</main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
