import { eq } from "drizzle-orm";
import type { Db } from "../db/open";
import { dashboardSettings } from "../db/schema";

/** Settings changed in the dashboard that outlive a restart, by key (JSON values). */
export type SettingKey = "default_guards";

export function readSetting<T>(db: Db, key: SettingKey): T | undefined {
  const row = db.select().from(dashboardSettings).where(eq(dashboardSettings.key, key)).get();
  return row ? (JSON.parse(row.value) as T) : undefined;
}

export function writeSetting(db: Db, key: SettingKey, value: unknown): void {
  const json = JSON.stringify(value);
  db.insert(dashboardSettings).values({ key, value: json }).onConflictDoUpdate({ target: dashboardSettings.key, set: { value: json } }).run();
}
