/**
 * Preloaded by bunfig.toml: the tests run Elysia in production mode, as the executable does
 * (src/production.ts). `bun test` sets NODE_ENV to "test" first, so it is overridden here.
 */
process.env.NODE_ENV = "production";
