/** @module Structured logs: one JSON object per line on stdout (errors on stderr). */

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Whether info lines (requests among them) are written; errors always are. */
  enabled: boolean;
  /** The process's id, on every line: set where several processes write to one stream. */
  pid?: number;
}

export function createLogger(options: LoggerOptions = { enabled: true }): Logger {
  const origin = options.pid === undefined ? {} : { pid: options.pid };
  const write = (stream: NodeJS.WriteStream, level: string, message: string, fields: Record<string, unknown>) => {
    const entry = { time: new Date().toISOString(), level, message, ...fields, ...origin };
    stream.write(`${JSON.stringify(entry, errorReplacer)}\n`);
  };
  return {
    info: (message, fields = {}) => options.enabled && write(process.stdout, 'info', message, fields),
    error: (message, fields = {}) => write(process.stderr, 'error', message, fields),
  };
}

function errorReplacer(_key: string, value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
