/**
 * An API key as the dashboard lists it (GET /ui/api/api-keys), never its token. A plain type that
 * imports nothing, so that the dashboard (src/ui, a client of the API) shares it instead of
 * declaring its own; test/dashboard/wire-types.test.ts holds it equal to the route's TypeBox model.
 */
export type ApiKeyInfo = {
  label: string;
  /** config: the TOML file's (read-only); local: the one generated for this machine's CLI; dashboard: created by an admin. */
  source: "config" | "local" | "dashboard";
  created_at: string | null;
  last_used_at: string | null;
  /** Present for a scoped key (["relay"]); absent: full access. */
  scopes?: string[];
  /** The channels a scoped key may reach. */
  channels?: string[];
};
