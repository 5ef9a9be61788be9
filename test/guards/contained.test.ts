import { expect, test } from "bun:test";
import { contained, type Guard } from "../../src/hooks/guards";
import type { Log } from "../../src/lib/log";
import { request, run } from "./support";

function recordingLog() {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  const log: Log = { info() {}, warn() {}, error: (message, fields) => void errors.push({ message, fields }) };
  return { log, errors };
}

const broken = (how: "throws" | "rejects"): Guard =>
  ({
    name: "buggy",
    kind: "hmac",
    check: () => {
      if (how === "throws") throw new Error("boom");
      return Promise.reject(new Error("boom"));
    },
  }) as unknown as Guard;

for (const how of ["throws", "rejects"] as const) {
  test(`a check that ${how} refuses with 401, tells the sender nothing, and is logged for the operator`, async () => {
    const { log, errors } = recordingLog();
    const verdict = await run(contained(broken(how), log), request());
    expect(verdict).toMatchObject({ ok: false, status: 401, reason: "the request could not be checked" });
    expect(errors).toEqual([{ message: "a guard's check failed; the request is refused", fields: { guard: "buggy", error: "Error: boom" } }]);
  });
}
