/**
 * MARC's transcribed text as a catalogue shows it: ISBD punctuation stripped from titles and publishers,
 * personal names turned round from MARC's inverted form with their dates dropped.
 */
import { describe, expect, it } from 'vitest';
import { personalName, withoutIsbdPunctuation } from '../src/protocols/marc/punctuation.js';

describe('ISBD punctuation', () => {
  it.each([
    ['The hobbit :', 'The hobbit'],
    ['or, There and back again /', 'or, There and back again'],
    ['Pride and prejudice.', 'Pride and prejudice'],
    ['Collected poems ;', 'Collected poems'],
    ['Allen & Unwin,', 'Allen & Unwin'],
    ['Waiting for…', 'Waiting for…'],
    ['And then there were none...', 'And then there were none...'],
    ['Letters to J. R. R.', 'Letters to J. R. R.'],
  ])('%s → %s', (text, expected) => {
    expect(withoutIsbdPunctuation(text)).toBe(expected);
  });
});

describe('personal names', () => {
  it.each([
    ['Tolkien, J. R. R., 1892-1973.', '1', 'J. R. R. Tolkien'],
    ['Austen, Jane,', '1', 'Jane Austen'],
    ['Le Guin, Ursula K.,', '1', 'Ursula K. Le Guin'],
    ['King, Martin Luther, Jr., 1929-1968.', '1', 'Martin Luther King, Jr.'],
    ['Smith, John, b. 1950.', '1', 'John Smith'],
    ['Homer.', '0', 'Homer'],
    ['Leonardo, da Vinci, 1452-1519.', '0', 'Leonardo, da Vinci'],
    ['Mann, Thomas, 1875-', '1', 'Thomas Mann'],
  ])('%s (first indicator %s) → %s', (text, indicator, expected) => {
    expect(personalName(text, indicator)).toBe(expected);
  });
});
