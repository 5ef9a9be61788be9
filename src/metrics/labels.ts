/** The label of every channel past the bound. Not a valid channel name, so it never names one. */
export const OTHER = "_other";

/**
 * Channels are created by senders, so a label per channel would let a stranger grow the metrics
 * without limit. Configured channels always have their own label; so do the first `max` other
 * channels to hold a hook (those already in the database at start-up first, oldest first); every
 * later one is counted under `_other`. A channel only gets a slot once a hook of it is stored:
 * requests that are refused (a guard, a pause) never take one.
 */
export function createChannelLabels(configured: readonly string[], max: number) {
  const fixed = new Set(configured);
  const admitted = new Set<string>();

  return {
    /** The channel's label, without giving it a slot. */
    of(channel: string): string {
      return fixed.has(channel) || admitted.has(channel) ? channel : OTHER;
    },
    /** The channel's label, giving it a slot while any is free (a hook of it was stored). */
    admit(channel: string): string {
      if (fixed.has(channel) || admitted.has(channel)) return channel;
      if (admitted.size >= max) return OTHER;
      admitted.add(channel);
      return channel;
    },
    /** How many channels have a label of their own (configured ones included). */
    labelled: () => fixed.size + admitted.size,
  };
}

export type ChannelLabels = ReturnType<typeof createChannelLabels>;

/**
 * Event types are chosen by senders too: the first `max` distinct ones (the empty one, for hooks
 * of unknown type, included) get a label of their own, every later one is counted as `_other`.
 */
export function createEventTypeLabels(max: number) {
  const admitted = new Set<string>();
  return {
    admit(eventType: string): string {
      if (admitted.has(eventType)) return eventType;
      if (admitted.size >= max) return OTHER;
      admitted.add(eventType);
      return eventType;
    },
  };
}
