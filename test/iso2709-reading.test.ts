/**
 * Reading ISO 2709 files however they arrive: an upload comes in chunks of any size, and a record may be
 * spread over many of them; a file cut short ends in a refusal, not in silence.
 */
import { Marc } from 'marcjs';
import { describe, expect, it } from 'vitest';
import { readIso2709 } from '../src/protocols/marc/index.js';

const record = (id: string, title: string) =>
  Buffer.from(
    Marc.format(
      {
        leader: '00000nam a2200000 a 4500',
        fields: [
          ['001', id],
          ['003', 'ISO'],
          ['100', '1 ', 'a', 'Le Guin, Ursula K.'],
          ['245', '10', 'a', `${title} /`],
          ['264', ' 1', 'c', '1968.'],
        ],
      },
      'Iso2709',
    ),
  );

const file = Buffer.concat([
  record('1', 'A wizard of Earthsea'),
  record('2', 'The tombs of Atuan'),
  record('3', 'Tehanu'),
]);

async function* inChunksOf(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(chunks: AsyncIterable<Uint8Array>) {
  const read: unknown[] = [];
  for await (const one of readIso2709(chunks, {})) read.push(one);
  return read;
}

describe('reading ISO 2709', () => {
  it.each([1, 7, 100, file.length])('reads every record whole in chunks of %i bytes', async (size) => {
    const records = await read(inChunksOf(file, size));
    expect(records).toEqual([
      expect.objectContaining({ title: 'A wizard of Earthsea', key: { source: 'ISO', controlNumber: '1' } }),
      expect.objectContaining({ title: 'The tombs of Atuan', key: { source: 'ISO', controlNumber: '2' } }),
      expect.objectContaining({ title: 'Tehanu', key: { source: 'ISO', controlNumber: '3' } }),
    ]);
  });

  it('refuses a last record cut short, and reads a final line end as nothing', async () => {
    const cut = await read(inChunksOf(file.subarray(0, file.length - 10), 64));
    expect(cut).toHaveLength(3);
    expect(cut[2]).toEqual({ reason: expect.stringMatching(/ends inside a record/) });
    expect(await read(inChunksOf(Buffer.concat([file, Buffer.from('\r\n')]), 64))).toHaveLength(3);
  });

  it('refuses, once, bytes that run past the longest record without a terminator, and reads on after them', async () => {
    const endless = Buffer.alloc(150_000, 'x');
    const records = await read(inChunksOf(Buffer.concat([endless, Buffer.from([0x1d]), file]), 4096));
    expect(records).toHaveLength(4);
    expect(records[0]).toEqual({ reason: expect.stringMatching(/without a record terminator/) });
    expect(records[3]).toEqual(expect.objectContaining({ title: 'Tehanu' }));
  });
});
