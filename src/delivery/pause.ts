/**
 * Handlers paused by a user (`mailroom handlers pause NAME`, the API, the dashboard): their
 * attempts stay queued, new hooks still queue theirs, and all of them run once the handler is
 * resumed. The paused names are kept in a setting of the database (the composition hands in the
 * dashboard's settings store), so a restart keeps a paused handler paused; writing it reports a
 * `state` change, so other instances sharing a PostgreSQL database read it again (load()).
 */
export type PausedSetting = {
  /** The stored names, or undefined when never set. */
  read(): Promise<string[] | undefined>;
  /**
   * Reads the names and stores what `change` makes of them as one step (reported as a state change
   * once committed): two instances pausing different handlers at once both keep theirs.
   * `change` answering undefined stores nothing. Resolves to the names kept.
   */
  update(change: (names: string[] | undefined) => string[] | undefined): Promise<string[] | undefined>;
};

export function createPauses(setting: PausedSetting) {
  let paused = new Set<string>();
  /** One change at a time: a pause and a resume at once must not write over each other. */
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = turn.then(fn, fn);
    turn = p.catch(() => {});
    return p;
  };

  async function set(name: string, on: boolean): Promise<boolean> {
    return inTurn(async () => {
      // Read and written as one step: another instance may change the setting at the same time.
      let changed = false;
      const kept = await setting.update((names) => {
        const now = new Set(names ?? []);
        if (now.has(name) === on) return undefined;
        if (on) now.add(name);
        else now.delete(name);
        changed = true;
        return [...now].sort();
      });
      paused = new Set(kept ?? []);
      return changed;
    });
  }

  return {
    /** Reads the paused names (start-up, and when another instance changed them). */
    async load(): Promise<void> {
      paused = new Set((await setting.read()) ?? []);
    },
    has: (name: string): boolean => paused.has(name),
    /** Pauses the handler; false when it was paused already. */
    pause: (name: string) => set(name, true),
    /** Resumes the handler; false when it was not paused. */
    resume: (name: string) => set(name, false),
  };
}
