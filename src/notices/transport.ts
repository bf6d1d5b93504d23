/**
 * @module The SMTP side of notices: a pooled nodemailer transport for `CATALOGUE_SMTP_URL`, and what a
 * failed send means for its notice. A server that refuses this message for good (a 5xx to the sender, the
 * recipient or the message) fails it; anything else — no connection, a timeout, a 4xx, a 5xx before any
 * message was offered (a greeting or a login refused) — is the server's trouble, tried again later.
 */
import nodemailer, { type SendMailOptions } from 'nodemailer';

/** What sends a message: nodemailer's transport, or any stand-in with its `sendMail`. */
export interface NoticeTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
  close(): void;
}

/** Bounds on one send, well within a claim's lease, so that a sender never holds a notice past it. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** Messages sent at once over one pool: a few connections, each reused for many messages. */
export const SMTP_CONNECTIONS = 4;

/** A pooled transport to the server `url` names (`smtp://user:pass@host:587`, `smtps://…`). */
export function smtpTransport(url: string): NoticeTransport {
  return nodemailer.createTransport({ url, pool: true, maxConnections: SMTP_CONNECTIONS, ...SMTP_TIMEOUTS });
}

/** Of a failed send: `retry` later, or `failed` for good; with what the server said, for librarians. */
export interface SendFailure {
  outcome: 'retry' | 'failed';
  error: string;
}

/** The SMTP commands whose 5xx refuses this message rather than the service. */
const MESSAGE_COMMANDS = new Set(['MAIL FROM', 'RCPT TO', 'DATA']);

export function sendFailure(error: unknown): SendFailure {
  const { responseCode, command, message, code } = (error ?? {}) as {
    responseCode?: number;
    command?: string;
    message?: string;
    code?: string;
  };
  const said = message ?? String(error);
  const permanent =
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    command !== undefined &&
    MESSAGE_COMMANDS.has(command);
  return { outcome: permanent ? 'failed' : 'retry', error: code && !said.includes(code) ? `${code}: ${said}` : said };
}
