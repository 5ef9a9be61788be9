/** @jsxImportSource preact */
import { navigate } from "../router";

/**
 * The hooks list's URL filtered by `tag:NAME` as well: the term added to the search `q` of `search`
 * (the list's own query string) unless it is there already; paging starts over.
 *
 * @example tagFilterHref("?channel=shop&q=refund", "billing") // "/ui/hooks?channel=shop&q=refund+tag%3Abilling"
 */
export function tagFilterHref(search: string, tag: string): string {
  const params = new URLSearchParams(search);
  const term = `tag:${tag}`;
  const q = (params.get("q") ?? "").trim();
  if (!q.split(/\s+/).includes(term)) params.set("q", q ? `${q} ${term}` : term);
  params.delete("after");
  params.delete("view");
  return `/ui/hooks?${params}`;
}

/**
 * A hook's tags as chips; each is a link that filters the list by its tag (tags are a pattern of
 * lower-case letters, digits and `._-`, so they are shown as they are). `onRemove` adds a remove
 * button to each.
 */
export function TagChips({ tags, search, onRemove, busy }: { tags: readonly string[]; search: string; onRemove?: (tag: string) => void; busy?: boolean }) {
  if (tags.length === 0) return null;
  return (
    <ul class="tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} class="tag-chip">
          <a
            href={tagFilterHref(search, tag)}
            title={`Show the hooks tagged ${tag}`}
            aria-label={`Filter by tag ${tag}`}
            onClick={(e) => {
              if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
              e.preventDefault();
              e.stopPropagation();
              navigate((e.currentTarget as HTMLAnchorElement).getAttribute("href")!);
            }}
          >
            {tag}
          </a>
          {onRemove && (
            <button type="button" class="tag-remove" aria-label={`Remove tag ${tag}`} title={`Remove tag ${tag}`} disabled={busy} onClick={() => onRemove(tag)}>
              ×
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
