import { randomInt, randomUUID } from "node:crypto";
import type { Fresh } from "./types";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Fresh ids and times for one send. */
export function fresh(now = Date.now()): Fresh {
  return {
    now,
    unix: Math.floor(now / 1000),
    iso: new Date(now).toISOString(),
    id: (prefix = "", len = 24) => prefix + Array.from({ length: len }, () => ALPHABET[randomInt(ALPHABET.length)]).join(""),
    uuid: () => randomUUID(),
    number: (digits = 9) => randomInt(10 ** Math.min(digits, 12)),
  };
}
