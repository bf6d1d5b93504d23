/** Reads a `text/event-stream` body frame by frame, as an EventSource would (HTML §9.2.6), for tests. */

/** One dispatched frame: an event (its fields) or a comment. */
export type Frame =
  | { kind: 'event'; id?: string; event?: string; data: string }
  | { kind: 'comment'; text: string }
  | { kind: 'retry'; ms: number };

export class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';

  constructor(response: Response) {
    if (!response.body) throw new Error('the response has no body');
    this.#reader = response.body.getReader();
  }

  /** The next frame; `undefined` when the stream ended. */
  async next(): Promise<Frame | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return parse(block);
      }
      const { done, value } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** The next `n` events, skipping comments; fails if the stream ends first. */
  async events(n: number): Promise<Extract<Frame, { kind: 'event' }>[]> {
    const events: Extract<Frame, { kind: 'event' }>[] = [];
    while (events.length < n) {
      const frame = await this.next();
      if (!frame) throw new Error(`the stream ended after ${events.length} of ${n} events`);
      if (frame.kind === 'event') events.push(frame);
    }
    return events;
  }

  /** Reads until a comment with this text arrives; answers the events read on the way. */
  async untilComment(text: string): Promise<Extract<Frame, { kind: 'event' }>[]> {
    const events: Extract<Frame, { kind: 'event' }>[] = [];
    for (;;) {
      const frame = await this.next();
      if (!frame) throw new Error(`the stream ended before a "${text}" comment`);
      if (frame.kind === 'comment' && frame.text === text) return events;
      if (frame.kind === 'event') events.push(frame);
    }
  }

  /** Goes away, as a client closing the connection does. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

function parse(block: string): Frame {
  const lines = block.split('\n');
  if (lines.every((line) => line.startsWith(':'))) return { kind: 'comment', text: lines[0]?.slice(1).trim() ?? '' };
  const fields: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    const name = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
    fields[name] = name in fields && name === 'data' ? `${fields[name]}\n${value}` : value;
  }
  if ('retry' in fields && !('data' in fields)) return { kind: 'retry', ms: Number(fields.retry) };
  return { kind: 'event', id: fields.id, event: fields.event, data: fields.data ?? '' };
}
