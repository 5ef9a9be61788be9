/**
 * A guard's config that cannot work; `key` is the config key at fault, reported with its path.
 * `more` holds further problems of the same entry, so that one run reports every bad value (every
 * bad block of an ip-allow list, not the first).
 */
export class GuardConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
    readonly more: readonly { key: string; message: string }[] = [],
  ) {
    super(message);
  }
}
