/**
 * A SIP2 terminal for tests: a real TCP socket to the listener, frames written by the test as literal text
 * (the checksum computed here, by a function of its own, never by the listener's encoder), answers read up to
 * each carriage return.
 */
import { connect, type Socket } from 'node:net';

/** SIP2 2.00's checksum: the two's complement of the 16-bit sum of the bytes up to and including `AZ`. */
export function sip2Checksum(bytes: Buffer): string {
  let sum = 0;
  for (const byte of bytes) sum += byte;
  return ((0x10000 - (sum % 0x10000)) % 0x10000).toString(16).toUpperCase().padStart(4, '0');
}

/** A frame ending in `AZ` with its checksum appended, as a terminal with error detection sends it. */
export function checksummed(frame: string, encoding: BufferEncoding = 'utf8'): string {
  if (!frame.endsWith('AZ')) throw new Error(`a frame to checksum ends in AZ: ${frame}`);
  return frame + sip2Checksum(Buffer.from(frame, encoding));
}

export class TestTerminal {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #waiting: ((answer: Buffer) => void)[] = [];
  #answers: Buffer[] = [];
  readonly closed: Promise<void>;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      for (let at = this.#buffer.indexOf(0x0d); at >= 0; at = this.#buffer.indexOf(0x0d)) {
        const answer = this.#buffer.subarray(0, at);
        this.#buffer = this.#buffer.subarray(at + 1);
        const waiter = this.#waiting.shift();
        if (waiter) waiter(answer);
        else this.#answers.push(answer);
      }
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  static open(port: number): Promise<TestTerminal> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => resolve(new TestTerminal(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes raw bytes (no carriage return added). */
  write(bytes: Buffer | string): void {
    this.#socket.write(bytes);
  }

  /** Sends a frame and its carriage return, in `encoding`; answers the next answer's bytes. */
  sendBytes(frame: string, encoding: BufferEncoding = 'utf8'): Promise<Buffer> {
    const next = this.next();
    this.#socket.write(Buffer.concat([Buffer.from(frame, encoding), Buffer.from('\r')]));
    return next;
  }

  /** Sends a frame; answers the next answer as text (UTF-8). */
  async send(frame: string): Promise<string> {
    return (await this.sendBytes(frame)).toString('utf8');
  }

  /** The next answer's bytes. */
  next(): Promise<Buffer> {
    const ready = this.#answers.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  end(): void {
    this.#socket.end();
  }
}

/** The variable fields of an answer after its fixed part, by tag (repeated tags in order). */
export function fieldsOf(answer: string, fixedLength: number): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  const body = answer.slice(fixedLength).replace(/AY\dAZ[0-9A-F]{4}$|AZ[0-9A-F]{4}$/, '');
  for (const piece of body.split('|')) {
    if (piece.length < 2) continue;
    const tag = piece.slice(0, 2);
    fields.set(tag, [...(fields.get(tag) ?? []), piece.slice(2)]);
  }
  return fields;
}

/** The one value of a tag, or undefined. */
export function fieldOf(answer: string, fixedLength: number, tag: string): string | undefined {
  return fieldsOf(answer, fixedLength).get(tag)?.[0];
}

/** Whether the answer's checksum (AZ, last) is right. */
export function checksumHolds(answer: Buffer): boolean {
  const text = answer.toString('latin1');
  const match = /AZ([0-9A-F]{4})$/.exec(text);
  if (!match) return false;
  return sip2Checksum(answer.subarray(0, answer.length - 4)) === match[1];
}
