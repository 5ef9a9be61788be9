/** Every table of Mailroom, one module per service; drizzle-kit reads this file. */
export * from "./hooks";
export * from "./guards";
export * from "./runner";
export * from "./translate";
export * from "./dashboard";
export * from "./misbehave";
export * from "./relay";
export * from "./alerts";
export * from "./contracts";
export * from "./bulk";
export * from "./tags";
export * from "./share";
export * from "./marks";
export * from "./notify";
