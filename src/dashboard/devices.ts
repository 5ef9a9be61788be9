import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { SettingStore } from "./store";

/** The cookie a browser that signed in keeps: its own allowance of sign-in attempts for that e-mail. */
export const DEVICE_COOKIE = "mailroom_device";
const YEAR_S = 365 * 24 * 3600;

/**
 * Device cookies (OWASP's defence against lockout by others): a browser that signed in to an account
 * gets a cookie naming a random device id, signed with a key kept in the database, for that e-mail.
 * A sign-in that shows a valid one is counted against that device alone, never against the
 * account's or the address's limits that strangers can fill: nobody elsewhere can keep the owner
 * out. The cookie opens nothing by itself: the password is still needed.
 *
 *   const value = await devices.issue("ann@example.com"); // "<id>.<signature>"
 *   await devices.verify(value, "ann@example.com")         // the id; undefined for another e-mail
 */
export function createDevices(store: Pick<SettingStore, "readSetting" | "createSetting">) {
  let key: Buffer | undefined;

  async function signingKey(): Promise<Buffer> {
    if (key) return key;
    let hex = await store.readSetting<string>("device_key");
    if (!hex) {
      await store.createSetting("device_key", randomBytes(32).toString("hex"));
      hex = (await store.readSetting<string>("device_key"))!;
    }
    return (key = Buffer.from(hex, "hex"));
  }

  const sign = (k: Buffer, id: string, email: string) => createHmac("sha256", k).update(`${id}\n${email.toLowerCase()}`).digest("base64url");

  return {
    /** A new device cookie's value for this e-mail. */
    async issue(email: string): Promise<string> {
      const id = randomBytes(16).toString("base64url");
      return `${id}.${sign(await signingKey(), id, email)}`;
    },
    /** The device id of a cookie value signed for this e-mail, else undefined (compared in constant time). */
    async verify(value: string | undefined, email: string): Promise<string | undefined> {
      const [id, signature, extra] = (value ?? "").split(".");
      if (!id || !signature || extra !== undefined || id.length > 64) return undefined;
      const expected = Buffer.from(sign(await signingKey(), id, email));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
    },
  };
}

/** The Set-Cookie of a device cookie: a year, sent only to the dashboard's API, never to scripts. */
export function deviceCookie(value: string, secure: boolean): string {
  return [`${DEVICE_COOKIE}=${value}`, `Max-Age=${YEAR_S}`, "Path=/ui/api", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])].join("; ");
}

export type Devices = ReturnType<typeof createDevices>;
