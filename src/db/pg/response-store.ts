import type { ResponseStore } from "../../responses/store";
import { report } from "../transactor";
import type { PgTransactor } from "./transactor";

/** PostgreSQL's side of ResponseStore (custom responses set through the management API). */
export function createPgResponseStore(t: PgTransactor): ResponseStore {
  const x = () => t.exec();
  return {
    async list() {
      return (await x().unsafe("SELECT channel, setting FROM channel_responses ORDER BY channel")) as { channel: string; setting: string }[];
    },
    async save(channel, setting, updatedAt) {
      await x().unsafe(
        "INSERT INTO channel_responses (channel, setting, updated_at) VALUES ($1, $2, $3) ON CONFLICT (channel) DO UPDATE SET setting = excluded.setting, updated_at = excluded.updated_at",
        [channel, setting, updatedAt],
      );
      report(t.sql, { kind: "state", part: "responses" });
    },
    async remove(channel) {
      if ((await x().unsafe("DELETE FROM channel_responses WHERE channel = $1", [channel])).count > 0) report(t.sql, { kind: "state", part: "responses" });
    },
  };
}
