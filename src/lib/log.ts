/** A minimal structured logger; main.ts prints to the terminal, tests pass `silentLog`. */
export interface Log {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

function line(level: string, message: string, fields?: Record<string, unknown>): string {
  const extra = fields && Object.keys(fields).length > 0 ? " " + JSON.stringify(fields) : "";
  return `${new Date().toISOString()} ${level} ${message}${extra}`;
}

export const consoleLog: Log = {
  info: (m, f) => console.log(line("info ", m, f)),
  warn: (m, f) => console.warn(line("warn ", m, f)),
  error: (m, f) => console.error(line("error", m, f)),
};

export const silentLog: Log = { info() {}, warn() {}, error() {} };
