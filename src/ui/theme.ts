/**
 * The colour theme: the system's (prefers-color-scheme) unless the user picked light or dark,
 * which is remembered in localStorage. The stylesheet reads `data-theme` on <html>.
 */
export type ThemeChoice = "system" | "light" | "dark";
const KEY = "mailroom-theme";

export function savedTheme(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "dark" ? v : "system";
  } catch {
    return "system";
  }
}

/** Applies a choice to the page (and remembers it); "system" follows the operating system again. */
export function applyTheme(choice: ThemeChoice): void {
  const root = document.documentElement;
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
  try {
    if (choice === "system") localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // storage refused (private mode): the choice lasts this page only
  }
}
