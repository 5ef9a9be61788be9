import pkg from "../../package.json" with { type: "json" };

/** Mailroom's version (package.json's), on its own so that what shows it need not load the command line. */
export const VERSION: string = pkg.version;
