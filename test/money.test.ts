/**
 * Money in integer minor units of one ISO 4217 currency: the exponent Intl gives each currency, amounts
 * parsed from JSON (a fraction, a string, a negative or an unsafe integer refused, naming the field), sums
 * and comparisons within one currency only, and amounts written for people exactly.
 */
import { describe, expect, it } from 'vitest';
import { UnprocessableEntity } from '../src/domain/errors.js';
import {
  add,
  CurrencyMismatch,
  compare,
  formatMoney,
  isCurrency,
  minorUnitDigits,
  money,
  multiply,
  parseMoney,
  smaller,
  subtract,
} from '../src/domain/money.js';

const eur = (minor: number) => money(minor, 'EUR');

describe('money', () => {
  it('takes the minor unit of each currency from Intl', () => {
    expect([minorUnitDigits('EUR'), minorUnitDigits('GBP'), minorUnitDigits('JPY'), minorUnitDigits('BHD')]).toEqual([
      2, 2, 0, 3,
    ]);
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('eur')).toBe(false);
    expect(isCurrency('ABC')).toBe(false);
    expect(() => minorUnitDigits('ABC')).toThrow(RangeError);
  });

  it('parses an integer of minor units, 0 or more', () => {
    expect(parseMoney(250, 'fine_per_day', 'EUR')).toEqual({ minor: 250, currency: 'EUR' });
    expect(parseMoney(0, 'fine_per_day', 'EUR')).toEqual({ minor: 0, currency: 'EUR' });
    expect(parseMoney(Number.MAX_SAFE_INTEGER, 'fine_cap', 'EUR').minor).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses a fraction, a string, a negative, an unsafe integer or anything else, naming the field (422)', () => {
    const refused: [unknown, RegExp][] = [
      [2.5, /fraction/],
      ['250', /not a string/],
      [-1, /0 or more/],
      [Number.MAX_SAFE_INTEGER + 1, /at most/],
      [Number.NaN, /fraction/],
      [null, /a number/],
      [true, /a number/],
    ];
    for (const [value, why] of refused) {
      let error: unknown;
      try {
        parseMoney(value, 'lost_charge', 'EUR');
      } catch (thrown) {
        error = thrown;
      }
      expect(error, String(value)).toBeInstanceOf(UnprocessableEntity);
      const refusal = error as UnprocessableEntity;
      expect(refusal.status).toBe(422);
      expect(Object.keys(refusal.details ?? {})).toEqual(['lost_charge']);
      expect(refusal.message).toMatch(/^lost_charge /);
      expect(refusal.details?.lost_charge).toMatch(why);
    }
  });

  it('adds, subtracts, multiplies and compares in integers, exactly', () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004; in cents it is 30.
    expect(add(eur(10), eur(20))).toEqual(eur(30));
    expect(subtract(eur(1000), eur(1001))).toEqual(eur(-1));
    expect(multiply(eur(25), 9)).toEqual(eur(225));
    expect([compare(eur(1), eur(2)), compare(eur(2), eur(2)), compare(eur(3), eur(2))]).toEqual([-1, 0, 1]);
    expect(smaller(eur(300), eur(200))).toEqual(eur(200));
    let sum = eur(0);
    for (let i = 0; i < 1000; i++) sum = add(sum, eur(1));
    expect(sum).toEqual(eur(1000));
  });

  it('refuses to combine two currencies', () => {
    const pounds = money(100, 'GBP');
    for (const combine of [add, subtract, compare]) {
      expect(() => combine(eur(100), pounds)).toThrow(CurrencyMismatch);
    }
    expect(() => add(eur(1), pounds)).toThrow(/EUR and GBP/);
    expect(new CurrencyMismatch('EUR', 'GBP').status).toBe(422);
  });

  it('refuses a sum beyond the safe integers rather than round it', () => {
    expect(() => add(eur(Number.MAX_SAFE_INTEGER), eur(1))).toThrow(UnprocessableEntity);
    expect(() => money(0.5, 'EUR')).toThrow(RangeError);
  });

  it('writes amounts for people, with the currency\u2019s own digits', () => {
    expect(formatMoney(eur(250))).toBe('€2.50');
    expect(formatMoney(eur(5))).toBe('€0.05');
    expect(formatMoney(eur(-1))).toBe('-€0.01');
    expect(formatMoney(money(250, 'JPY'))).toBe('¥250');
    expect(formatMoney(money(1234, 'BHD'))).toBe('BHD\u00a01.234');
    expect(formatMoney(money(199, 'GBP'))).toBe('£1.99');
    // Exact beyond what a float of the amount in units could hold.
    expect(formatMoney(eur(Number.MAX_SAFE_INTEGER))).toBe('€90,071,992,547,409.91');
    expect(formatMoney(eur(250), 'de-DE')).toBe('2,50\u00a0€');
  });
});
