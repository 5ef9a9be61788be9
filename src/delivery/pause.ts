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
  /** Stores the names (reported as a state change once committed). */
  write(names: string[]): Promise<void>;
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
      // Read again: another instance may have changed the setting since it was loaded.
      const now = new Set((await setting.read()) ?? []);
      if (now.has(name) === on) return ((paused = now), false);
      if (on) now.add(name);
      else now.delete(name);
      await setting.write([...now].sort());
      paused = now;
      return true;
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
