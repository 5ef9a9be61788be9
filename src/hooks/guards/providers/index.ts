import { DEV } from "./dev";
import { MESSAGING } from "./messaging";
import { MORE } from "./more";
import { PAYMENTS } from "./payments";
import { PLATFORMS } from "./platforms";
import { PRODUCTIVITY } from "./productivity";
import type { Preset } from "./types";

export type { Handshake, Preset } from "./types";

/** Every named provider, by kind (`kind = "github"`), sorted by kind. */
export const PRESETS: ReadonlyMap<string, Preset> = new Map(
  [...DEV, ...PAYMENTS, ...MESSAGING, ...PLATFORMS, ...PRODUCTIVITY, ...MORE].sort((a, b) => a.kind.localeCompare(b.kind)).map((p) => [p.kind, p]),
);
