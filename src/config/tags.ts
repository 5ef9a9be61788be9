import { Type as t } from "@sinclair/typebox";

/**
 * A tag (docs/tags.md): 1 to 32 characters, lower-case letters, digits, `.`, `_` and `-`, starting
 * with a letter or digit. Lower case only, so `Billing` and `billing` are never two tags; no `:`,
 * space or quote, so a tag is written as it is after `tag:` in a query.
 */
export const TAG_PATTERN = "^[a-z0-9][a-z0-9._-]{0,31}$";
export const TAG_RULE = "1 to 32 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit";
/** Tags one request or one rule may add or remove. */
export const MAX_TAGS = 20;

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
