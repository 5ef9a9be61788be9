import { useEffect, useState } from "preact/hooks";

/** The current location under /ui, updated by navigate() and the browser's back button. */
export function useLocation(): URL {
  const [url, setUrl] = useState(() => new URL(location.href));
  useEffect(() => {
    const update = () => setUrl(new URL(location.href));
    addEventListener("popstate", update);
    addEventListener("navigate-ui", update);
    return () => {
      removeEventListener("popstate", update);
      removeEventListener("navigate-ui", update);
    };
  }, []);
  return url;
}

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, "", to);
  else history.pushState(null, "", to);
  dispatchEvent(new Event("navigate-ui"));
}

/** Follows in-app links without a reload. */
export function link(e: MouseEvent): void {
  const a = e.currentTarget as HTMLAnchorElement;
  if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
  e.preventDefault();
  navigate(a.getAttribute("href")!);
}
