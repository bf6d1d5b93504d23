/**
 * @module One terminal's TCP connection: bytes cut into messages at each carriage return (a line feed after
 * it is ignored), a bounded line (a longer one is dropped to its end and answered 96), one message answered
 * at a time in order, 97 answered with the last answer again, and a connection that sends only what cannot be
 * read, floods or falls silent closed.
 */
import type { Socket } from 'node:net';
import { answer } from './answers.js';
import { type Charset, charsetOf } from './charsets.js';
import { answerBytes, readMessage } from './frame.js';
import type { Services, Session } from './services.js';

/** The longest message read; the longest real one (a checkout with every field) is a few hundred bytes. */
export const MAX_MESSAGE_BYTES = 4096;
/** Messages received and not yet answered; a terminal waits for each answer, so more is a flood. */
const MAX_PENDING = 32;
/** Messages in a row that cannot be read (96 each) before the connection is closed. */
const MAX_UNREADABLE = 5;
const CR = 0x0d;

const utf8 = charsetOf('utf-8');

export class Connection {
  readonly #socket: Socket;
  readonly #services: Services;
  readonly #session: Session = { terminal: undefined };
  #buffered: Buffer[] = [];
  #bufferedBytes = 0;
  /** Dropping a message too long to read, up to its carriage return. */
  #dropping = false;
  #pending = 0;
  #work: Promise<void> = Promise.resolve();
  #last: Buffer | undefined;
  #unreadable = 0;
  #closing = false;

  constructor(socket: Socket, services: Services, idleMs: number) {
    this.#socket = socket;
    this.#services = services;
    socket.setNoDelay(true);
    socket.setTimeout(idleMs, () => socket.destroy());
    // A reset or broken pipe ends this terminal's connection, never the process.
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => this.#receive(chunk));
  }

  /** Whether a message is being answered. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  /** Ends the connection now, whatever is under way. */
  destroy(): void {
    this.#socket.destroy();
  }

  /** Ends the connection once the message under way (if any) is answered. */
  close(): Promise<void> {
    this.#closing = true;
    this.#socket.pause();
    return this.#work.then(() => {
      this.#socket.end();
    });
  }

  #charset(): Charset {
    const terminal = this.#session.terminal;
    return terminal ? charsetOf(terminal.charset) : utf8;
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    for (let at = chunk.indexOf(CR); at >= 0; at = chunk.indexOf(CR, start)) {
      const piece = chunk.subarray(start, at);
      start = at + 1;
      const dropped = this.#dropping;
      const message = this.#bufferedBytes === 0 ? piece : Buffer.concat([...this.#buffered, piece]);
      this.#buffered = [];
      this.#bufferedBytes = 0;
      this.#dropping = false;
      if (dropped || message.length > MAX_MESSAGE_BYTES) {
        this.#enqueue(undefined);
        continue;
      }
      this.#enqueue(message);
    }
    const rest = chunk.subarray(start);
    if (rest.length === 0 || this.#dropping) return;
    if (this.#bufferedBytes + rest.length > MAX_MESSAGE_BYTES) {
      this.#buffered = [];
      this.#bufferedBytes = 0;
      this.#dropping = true;
      return;
    }
    // A copy: the socket's chunk may be reused once this returns.
    this.#buffered.push(Buffer.from(rest));
    this.#bufferedBytes += rest.length;
  }

  /** Queues a message (undefined: one too long to read) to be answered after those before it. */
  #enqueue(message: Buffer | undefined): void {
    if (this.#closing) return;
    if (this.#pending >= MAX_PENDING) {
      this.#socket.destroy();
      return;
    }
    this.#pending += 1;
    this.#work = this.#work
      .then(() => this.#handle(message))
      .catch((error: unknown) => {
        this.#services.log.error('sip2 connection failed', {
          error: error instanceof Error ? error.name : String(error),
        });
        this.#socket.destroy();
      })
      .finally(() => {
        this.#pending -= 1;
      });
  }

  async #handle(raw: Buffer | undefined): Promise<void> {
    if (this.#socket.destroyed) return;
    // A line feed after the carriage return (or before the message) is no part of it.
    const message = raw && trimLineFeeds(raw);
    if (message !== undefined && message.length === 0) return;
    const terminal = this.#session.terminal;
    const charset = this.#charset();
    if (message !== undefined && message[0] === 0x39 && message[1] === 0x37) {
      // 97: the last answer again, as it was sent (its sequence number and checksum too).
      this.#write(this.#last ?? this.#resend(terminal?.errorDetection ?? false, charset));
      return;
    }
    const reading = message
      ? readMessage(message, charset.decode, terminal?.errorDetection ?? false)
      : ({ kind: 'corrupt' } as const);
    if (reading.kind !== 'request') {
      this.#unreadable += 1;
      this.#write(this.#resend(terminal?.errorDetection ?? hasChecksum(message), charset));
      if (this.#unreadable >= MAX_UNREADABLE) this.#socket.end();
      return;
    }
    this.#unreadable = 0;
    const { request } = reading;
    const text = await answer(this.#services, this.#session, request);
    // With error detection, or when the request carried a checksum (before a login, no setting is known).
    const after = this.#session.terminal;
    const detect = (after?.errorDetection ?? false) || request.sequence !== undefined || hasChecksum(message);
    const bytes = answerBytes(text, this.#charset().encode, detect ? { sequence: request.sequence } : undefined);
    this.#last = bytes;
    this.#write(bytes);
  }

  /** 96: the terminal is asked to send its last message again (never sequenced; checksummed with detection). */
  #resend(checksummed: boolean, charset: Charset): Buffer {
    return answerBytes('96', charset.encode, checksummed ? { sequence: undefined } : undefined);
  }

  #write(bytes: Buffer): void {
    if (!this.#socket.destroyed && this.#socket.writable) this.#socket.write(bytes);
  }
}

function hasChecksum(message: Buffer | undefined): boolean {
  return message !== undefined && /AZ[0-9A-Fa-f]{4}$/.test(message.toString('latin1'));
}

function trimLineFeeds(bytes: Buffer): Buffer {
  let start = 0;
  let end = bytes.length;
  while (start < end && bytes[start] === 0x0a) start += 1;
  while (end > start && bytes[end - 1] === 0x0a) end -= 1;
  return bytes.subarray(start, end);
}
