/** A guard's config that cannot work; `key` is the config key at fault, reported with its path. */
export class GuardConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}
