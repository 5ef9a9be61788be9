import { expect, test } from "bun:test";
import { parseArgs } from "../../src/cli";

/**
 * `serve`/`listen --resign KIND` take the secret from $MAILROOM_SIGN_SECRET as replay, send and
 * trigger do, so it need not sit on the command line (visible to every user in /proc).
 */
const ENV = { MAILROOM_SIGN_SECRET: "whsec_from_env" };

test("serve --forward-to URL --resign stripe signs with $MAILROOM_SIGN_SECRET; --secret wins over it", () => {
  expect(parseArgs(["serve", "--forward-to", "http://127.0.0.1:3000/", "--resign", "stripe"], ENV)).toMatchObject({
    forwardTo: { url: "http://127.0.0.1:3000/", resign: { kind: "stripe", secret: "whsec_from_env" } },
  });
  expect(parseArgs(["serve", "--forward-to", "http://127.0.0.1:3000/", "--resign", "stripe", "--secret", "whsec_flag"], ENV)).toMatchObject({
    forwardTo: { resign: { kind: "stripe", secret: "whsec_flag" } },
  });
});

test("listen --resign stripe takes $MAILROOM_SIGN_SECRET; without it or --secret the message names both", () => {
  const listen = parseArgs(
    ["listen", "http://127.0.0.1:8080", "--channel", "pay", "--token", "mr_relay_x", "--forward-to", "http://127.0.0.1:3000/", "--resign", "stripe"],
    ENV,
  );
  expect(JSON.stringify(listen)).toContain('"secret":"whsec_from_env"');
  expect(parseArgs(["serve", "--forward-to", "http://127.0.0.1:3000/", "--resign", "stripe"], {})).toEqual({
    kind: "error",
    message: expect.stringContaining("--secret S (or $MAILROOM_SIGN_SECRET)"),
  });
  // The variable alone, without --resign, is no mistake (replay and send read it too).
  expect(parseArgs(["serve", "--forward-to", "http://127.0.0.1:3000/"], ENV)).toEqual({ kind: "serve", forwardTo: { url: "http://127.0.0.1:3000/" } });
});
