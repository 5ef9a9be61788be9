// A Mailroom listening with an idle timeout of 1 s, in a process of its own: under `bun test` the
// server's idle timeout is not enforced, so the test that needs it starts this instead.
import { createTestApp } from "../helpers/app";

const app = createTestApp({}, { heartbeatMs: 600_000 });
const { url } = app.listen({ idleTimeout: 1 });
console.log(`listening on ${url}`);
