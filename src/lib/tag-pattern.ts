/**
 * A tag (docs/tags.md): 1 to 32 characters, lower-case letters, digits, `.`, `_` and `-`, starting
 * with a letter or digit. Lower case only, so `Billing` and `billing` are never two tags; no `:`,
 * space or quote, so a tag is written as it is after `tag:` in a query. Pure, so the dashboard
 * checks a tag as the server does (config/tags.ts re-exports it for the TOML schema).
 */
export const TAG_PATTERN = "^[a-z0-9][a-z0-9._-]{0,31}$";
export const TAG_RULE = "1 to 32 characters of a-z, 0-9, '.', '_' and '-', starting with a letter or digit";
/** Tags one request or one rule may add or remove. */
export const MAX_TAGS = 20;
