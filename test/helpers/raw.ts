/**
 * Writes raw bytes to a listener (requests fetch() will not send: no Host, HTTP/1.0, a declared
 * body never sent) and resolves with what came back: once a whole response has arrived (its head
 * and Content-Length bytes of body), when the server closes, or after `waitMs`.
 */
export function rawExchange(port: number, text: string, waitMs = 2000): Promise<string> {
  const { promise, resolve } = Promise.withResolvers<string>();
  let out = "";
  void Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      open: (s) => {
        s.write(text);
        setTimeout(() => (s.end(), resolve(out)), waitMs);
      },
      data: (s, d) => {
        out += d.toString();
        const end = out.indexOf("\r\n\r\n");
        const length = /content-length: *(\d+)/i.exec(out.slice(0, Math.max(0, end)))?.[1];
        if (end >= 0 && length !== undefined && out.length >= end + 4 + Number(length)) s.end(), resolve(out);
      },
      close: () => resolve(out),
      error: () => resolve(out),
    },
  });
  return promise;
}

/**
 * Writes `head` (a request whose declared body never comes) and resolves with what came back once
 * the server closes the connection; it never resolves if the server keeps it open.
 */
export function untilClosed(port: number, head: string): Promise<string> {
  const { promise, resolve } = Promise.withResolvers<string>();
  let out = "";
  void Bun.connect({
    hostname: "127.0.0.1",
    port,
    socket: {
      open: (s) => void s.write(head),
      data: (_s, d) => void (out += d.toString()),
      close: () => resolve(out),
      error: () => resolve(out),
    },
  });
  return promise;
}

/** The status code of a raw response, and its body parsed as JSON. */
export const rawStatus = (answer: string) => Number(answer.split(" ")[1]);
export const rawJson = (answer: string) => JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
