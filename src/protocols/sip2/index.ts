/**
 * @module SIP2 (3M Standard Interchange Protocol 2.00), the protocol's entry point: a TCP listener for
 * self-check machines and book-drop sorters (`listener.ts`). Inside: a terminal's connection
 * (`connection.ts`), a message read and an answer written (`frame.ts`, `checksum.ts`, `charsets.ts`,
 * `dates.ts`), the messages taken (`messages.ts`), the answers (`answers.ts` and the files it names) and the
 * adapter to the desk's circulation (`circulation.ts`). Nothing outside this folder imports any other file.
 */
export { type Sip2Listener, type Sip2Options, startSip2Listener } from './listener.js';
