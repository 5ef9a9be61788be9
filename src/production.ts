/**
 * Imported by main.ts before anything that loads Elysia, which decides at load time whether it runs
 * in production mode. Outside it, each validation error builds its message from the whole offending
 * value, pretty-printed, beside an example of what was expected: for a large bad body, hundreds of
 * milliseconds on the one thread that also catches hooks (a 4 MB translation body: 325 ms, against
 * 109 ms in production mode). Mailroom builds its own error messages either way. An operator's own
 * NODE_ENV is kept.
 */
process.env.NODE_ENV ??= "production";
