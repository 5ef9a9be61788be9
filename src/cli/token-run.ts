/** `mailroom token ...`: the data file of the config serve would read, then token.ts. */
import { ConfigError, loadConfig } from "../load-config";
import type { Io } from "../lib/io";
import { type StorageOf, tokenCommand } from "./token";

/** The data file, host and port of the config `serve` would read. Throws ConfigError. */
const storageOf: StorageOf = async (file) => {
  const { config, source } = await loadConfig(file, process.env);
  const labels = config.api_keys.map((k) => k.label);
  return { path: config.storage.path, host: config.server.host, port: config.server.port, url: config.storage.url, source, labels };
};

export async function runToken(argv: string[], io: Io): Promise<number> {
  try {
    return await tokenCommand(argv, io, storageOf);
  } catch (error) {
    if (error instanceof ConfigError) return (io.err(`mailroom: the config has problems:\n${error.message}\n`), 1);
    throw error;
  }
}
