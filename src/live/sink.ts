/**
 * One client's end of a live stream: the response body, and what the server holds for it.
 *
 * The body is a direct ReadableStream (Bun's `type: "direct"`): bytes go from here to the socket
 * with no queue of Bun's own in between. A write that the socket cannot take at once returns a
 * promise, and what Bun keeps meanwhile is that write's bytes only; later pieces wait here, in a
 * queue of the buffers the streams share (a piece sent to fifty clients is one buffer). So what
 * the server holds for a client that does not read is counted exactly: `unread()`, those queued
 * bytes plus the one blocked write. What the operating system's socket buffers hold comes on top
 * and is not the process's memory.
 *
 * `drop()` aborts the connection (Bun resets it, so its socket buffers go too) and lets the
 * queue go; `end()` finishes the response cleanly once what is queued was taken.
 */

/** Bytes handed to the socket in one write: what Bun copies for a blocked client is at most this. */
export const WRITE_SLICE = 64 * 1024;
/** How long a clean end may wait for the client to take what is left before the connection is reset. */
export const END_GRACE_MS = 2000;

export type Sink = {
  /** The response body; an HTTP response calls its `pull` as soon as it is sent. */
  stream: ReadableStream<Uint8Array>;
  /** Queues bytes for the client (they are not copied) and writes what the socket takes. */
  write(bytes: Uint8Array): void;
  /** Bytes written for the client that the socket has not taken: what the server holds for it. */
  unread(): number;
  /** Ends the response cleanly once what is queued was taken (`last` written first), or resets it after END_GRACE_MS. */
  end(last?: Uint8Array): void;
  /** Aborts the connection at once and lets everything queued go. */
  drop(reason: Error): void;
  /** Whether the stream is over (ended, dropped, or cancelled by the client). */
  done(): boolean;
};

/** `onGone` is told once when the client goes away by itself (disconnects or cancels). */
export function createSink(onGone: () => void): Sink {
  let controller: ReadableStreamDirectController | undefined;
  let finish: { resolve(): void; reject(e: Error): void } | undefined;
  const queue: Uint8Array[] = [];
  let queued = 0;
  /** Bytes of the write the socket could not take yet (Bun holds them), 0 when not blocked. */
  let blocked = 0;
  let ending = false;
  let dropped: Error | undefined;
  let over = false;

  function drain(): void {
    if (!controller || blocked || over) return;
    while (queue.length > 0) {
      const head = queue[0]!;
      const bytes = head.byteLength > WRITE_SLICE ? head.subarray(0, WRITE_SLICE) : head;
      if (bytes === head) queue.shift();
      else queue[0] = head.subarray(WRITE_SLICE);
      queued -= bytes.byteLength;
      const written = controller.write(bytes);
      const flushed = written instanceof Promise ? written : controller.flush();
      if (written instanceof Promise || flushed instanceof Promise) {
        blocked = bytes.byteLength;
        (flushed as Promise<number>).then(unblock, unblock);
        return;
      }
    }
    if (!ending) return;
    // The end waits until the socket has taken everything (Bun's own buffer too), within END_GRACE_MS.
    const drained = controller.flush(true);
    if (drained instanceof Promise) drained.then(settle, settle);
    else settle();
  }
  function unblock(): void {
    blocked = 0;
    drain();
  }
  function settle(): void {
    if (over || !finish) return;
    over = true;
    if (dropped) finish.reject(dropped);
    else finish.resolve();
  }

  const stream = new ReadableStream<Uint8Array>({
    type: "direct",
    pull(c) {
      controller = c;
      const { promise, resolve, reject } = Promise.withResolvers<void>();
      finish = { resolve, reject };
      if (dropped) settle();
      else drain();
      return promise;
    },
    cancel() {
      if (over) return;
      over = true;
      queue.length = 0;
      queued = 0;
      onGone();
    },
  });

  return {
    stream,
    write(bytes) {
      if (over || ending || dropped || bytes.byteLength === 0) return;
      queue.push(bytes);
      queued += bytes.byteLength;
      drain();
    },
    unread: () => queued + blocked,
    end(last) {
      if (over || ending || dropped) return;
      if (last) queue.push(last), (queued += last.byteLength);
      ending = true;
      // A client that stopped reading would hold the response (and a server stopping) open for ever.
      setTimeout(() => {
        if (over) return;
        dropped = new Error("client too slow to end");
        settle();
      }, END_GRACE_MS).unref?.();
      drain();
    },
    drop(reason) {
      if (over || dropped) return;
      dropped = reason;
      queue.length = 0;
      queued = 0;
      settle();
    },
    done: () => over || dropped !== undefined,
  };
}
