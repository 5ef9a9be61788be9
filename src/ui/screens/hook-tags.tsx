/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { api } from "../api";
import { MAX_TAGS, TAG_PATTERN, TAG_RULE } from "../../lib/tag-pattern";
import { TagChips } from "../parts/tag-chips";

const TAG = new RegExp(TAG_PATTERN);

/**
 * A hook's tags on its screen: chips that filter the list, each with a remove button, and a form
 * that adds one or more (separated by spaces or commas). The server checks them as the API does
 * (POST and DELETE /ui/api/hooks/{id}/tags); a tag out of the pattern is refused here first.
 */
export function HookTags({ id, tags, onTags }: { id: string; tags: readonly string[]; onTags: (tags: string[]) => void }) {
  const [typed, setTyped] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async (method: "POST" | "DELETE", list: string[]) => {
    setBusy(true);
    try {
      onTags((await api<{ tags: string[] }>(method, `/hooks/${id}/tags`, { tags: list })).tags);
      setError("");
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async (e: Event) => {
    e.preventDefault();
    const list = [...new Set(typed.split(/[\s,]+/).filter(Boolean))];
    if (list.length === 0) return setError("Type a tag to add.");
    const bad = list.find((t) => !TAG.test(t));
    if (bad !== undefined) return setError(`"${bad}" is not a tag: a tag is ${TAG_RULE}.`);
    if (list.length > MAX_TAGS) return setError(`Add at most ${MAX_TAGS} tags at once.`);
    if (await send("POST", list)) setTyped("");
  };
  return (
    <section class="hook-tags" aria-label="Tags">
      <TagChips tags={tags} search={location.search} busy={busy} onRemove={(tag) => void send("DELETE", [tag])} />
      <form class="tag-add" onSubmit={add}>
        <label for="tag-add-input" class="sr-only">
          Add tags
        </label>
        <input
          id="tag-add-input"
          value={typed}
          placeholder={tags.length ? "another tag" : "add a tag"}
          autocomplete="off"
          spellcheck={false}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? "tag-add-error" : undefined}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value.toLowerCase())}
        />
        <button type="submit" disabled={busy}>
          Add tag
        </button>
      </form>
      {error && (
        <p class="error" role="alert" id="tag-add-error">
          {error}
        </p>
      )}
    </section>
  );
}
