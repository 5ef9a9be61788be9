import { Type as t } from "@sinclair/typebox";
import { MAX_TAGS, TAG_PATTERN, TAG_RULE } from "../lib/tag-pattern";

export { MAX_TAGS, TAG_PATTERN, TAG_RULE };

/** `[[tag_rules]]`: hooks a query matches get the tags as they are caught (its query checked as a handler's `when`). */
export const TagRule = t.Object(
  {
    query: t.String({ minLength: 1, description: 'a search query (docs/search.md), as a handler\'s `when`: "event:invoice.* larger:10KB"' }),
    tags: t.Array(t.String({ pattern: TAG_PATTERN, error: `tags: each is ${TAG_RULE}` }), {
      minItems: 1,
      maxItems: MAX_TAGS,
      description: `the tags put on each hook the query matches: 1 to ${MAX_TAGS}, each ${TAG_RULE}`,
    }),
  },
  { additionalProperties: false },
);
