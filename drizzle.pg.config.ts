import { defineConfig } from "drizzle-kit";

/** The PostgreSQL schema and its migrations; drizzle.config.ts is SQLite's. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/schema/pg/index.ts",
  out: "./drizzle-pg",
});
