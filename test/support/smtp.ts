/**
 * A real SMTP server in the test process (`smtp-server` on 127.0.0.1, a port of its own): it keeps every
 * message it accepts, read back by `mailparser`, with the envelope it came in. A test makes it answer as a
 * troubled server does: a 4xx to the next messages, a 5xx to a recipient, or no answer at all (stopped,
 * then started again on the same port).
 */
import { createServer } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the server accepted. */
export interface ReceivedMail {
  parsed: ParsedMail;
  /** The bytes as they arrived. */
  raw: string;
  /** SMTP's envelope: who it was from and to, as `MAIL FROM` and `RCPT TO` said. */
  mailFrom: string;
  rcptTo: string[];
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, as `CATALOGUE_SMTP_URL`. */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Answers the next `count` messages `451` (try again later), accepting none of them. */
  deferNext(count: number): void;
  /** Answers `550` to a `RCPT TO` of this address. */
  bounce(address: string): void;
  /** Stops listening: connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Resolves once `count` messages have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

/** A port nothing listens on, for now: the port a server stopped before its first start would use. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A server on a port of its own; `listening: false` leaves it stopped (refusing connections) until `start`. */
export async function startSmtpServer(options: { listening?: boolean } = {}): Promise<TestSmtpServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  const bounced = new Set<string>();
  let deferred = 0;
  const waiters: (() => void)[] = [];
  const refuse = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

  const serverOf = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (bounced.has(address.address)) callback(refuse(550, `5.1.1 <${address.address}>: no such mailbox`));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (deferred > 0) {
            deferred--;
            callback(refuse(451, '4.3.0 try again later'));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed) => {
              const { mailFrom, rcptTo } = session.envelope;
              received.push({
                parsed,
                raw,
                mailFrom: mailFrom === false ? '' : mailFrom.address,
                rcptTo: rcptTo.map((to) => to.address),
              });
              for (const wake of waiters.splice(0)) wake();
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });

  let server: SMTPServer | undefined;
  const smtp: TestSmtpServer = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    deferNext(count) {
      deferred = count;
    },
    bounce(address) {
      bounced.add(address);
    },
    async start() {
      if (server) return;
      const starting = serverOf();
      await new Promise<void>((resolve, reject) => {
        starting.server.once('error', reject);
        starting.listen(port, '127.0.0.1', () => resolve());
      });
      server = starting;
    },
    async stop() {
      const stopping = server;
      server = undefined;
      if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
    },
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${received.length} messages arrived, not ${count}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received;
    },
  };
  if (options.listening ?? true) await smtp.start();
  return smtp;
}
