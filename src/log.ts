/** @module Structured logs through pino: one JSON object per line, info on stdout, errors on stderr. */
import pino from 'pino';

/** What the service logs with: a message and the fields that go with it. */
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
  const settings: pino.LoggerOptions = {
    messageKey: 'message',
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    base: options.pid === undefined ? null : { pid: options.pid },
    serializers: { error: errorFields },
  };
  // Synchronous, as Node writes to files and pipes: a line is out when the call returns, so a crash cannot
  // lose it and a shutdown has nothing to flush.
  const out = options.enabled ? pino(settings, pino.destination({ dest: 1, sync: true })) : undefined;
  const err = pino(settings, pino.destination({ dest: 2, sync: true }));
  return {
    info: (message, fields) => out?.info(fields, message),
    error: (message, fields) => err.error(fields, message),
  };
}

function errorFields(value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
