/**
 * @module SIP2's error detection (3M SIP2 2.00, "Error Detection"): the checksum (AZ) is the two's
 * complement of the 16-bit sum of every byte of the message up to and including the `AZ` tag, written as four
 * hexadecimal digits.
 */

/** The checksum of `bytes` (a message up to and including `AZ`), four upper-case hexadecimal digits. */
export function checksum(bytes: Uint8Array): string {
  let sum = 0;
  for (const byte of bytes) sum = (sum + byte) & 0xffff;
  return (-sum & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}
