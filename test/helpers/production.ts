/**
 * Preloaded by bunfig.toml: the tests run Elysia in production mode, as the executable does
 * (src/production.ts). `bun test` sets NODE_ENV to "test" first, so it is overridden here.
 */
process.env.NODE_ENV = "production";

// Targets of test/helpers/target.ts stop after the test that started them (see targetLifecycle).
// Imported when first used, after NODE_ENV is set above (a static import would run before it).
import { afterAll, afterEach, beforeEach } from "bun:test";
const lifecycle = async () => (await import("./target")).targetLifecycle;
beforeEach(async () => (await lifecycle()).testStarts());
afterEach(async () => (await lifecycle()).testEnded());
afterAll(async () => (await lifecycle()).runEnded());
