/** @jsxImportSource preact */
import { tagFilterHref } from "../filters";
import { navigate } from "../router";

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
