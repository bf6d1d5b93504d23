/**
 * @module Money: an integer number of minor units (cents, pence, yen) of one ISO 4217 currency, never a
 * float. Sums and comparisons only within one currency; the minor-unit exponent and the way people read an
 * amount come from Intl (docs/access-and-loans.md, "Money").
 */
import { UnprocessableEntity } from './errors.js';

/** An amount: `minor` units of `currency` (e.g. 250 of EUR is €2.50). `minor` is a safe integer. */
export interface Money {
  readonly minor: number;
  readonly currency: string;
}

/** A sum or comparison of two currencies: refused, never converted. */
export class CurrencyMismatch extends UnprocessableEntity {
  constructor(
    readonly left: string,
    readonly right: string,
  ) {
    super(`amounts in ${left} and ${right} cannot be combined`, { currency: `must be ${left}` });
  }
}

let currencies: ReadonlySet<string> | undefined;

/** Whether `code` is an ISO 4217 currency code (upper case) that Intl knows. */
export function isCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

const exponents = new Map<string, number>();

/** Digits after the decimal point of the currency's minor unit: 2 for EUR, 0 for JPY, 3 for BHD. */
export function minorUnitDigits(currency: string): number {
  let digits = exponents.get(currency);
  if (digits === undefined) {
    if (!isCurrency(currency)) throw new RangeError(`${currency} is not an ISO 4217 currency`);
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    exponents.set(currency, digits);
  }
  return digits;
}

/** An amount from minor units already known to be whole (a stored value, a computed fine). */
export function money(minor: number, currency: string): Money {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`an amount is a safe integer of minor units: ${minor}`);
  if (!isCurrency(currency)) throw new RangeError(`${currency} is not an ISO 4217 currency`);
  return { minor, currency };
}

/**
 * An amount a request sent as `field`: a JSON integer of minor units, 0 or more, within the safe integers.
 * A fraction, a string, a negative or an unsafe number is 422 naming the field.
 */
export function parseMoney(value: unknown, field: string, currency: string): Money {
  const refuse = (why: string) =>
    new UnprocessableEntity(`${field} must be ${why} (an integer of minor units of ${currency})`, {
      [field]: `must be ${why}`,
    });
  if (typeof value !== 'number') throw refuse('a number, not a string or anything else');
  if (!Number.isInteger(value)) throw refuse('a whole number of minor units, not a fraction');
  if (value < 0) throw refuse('0 or more');
  if (!Number.isSafeInteger(value)) throw refuse('at most 9007199254740991');
  return money(value, currency);
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new CurrencyMismatch(a.currency, b.currency);
}

function checked(minor: number, currency: string): Money {
  if (!Number.isSafeInteger(minor)) {
    throw new UnprocessableEntity(`the amount is beyond what can be counted exactly in ${currency}`);
  }
  return { minor, currency };
}

export function add(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return checked(a.minor + b.minor, a.currency);
}

export function subtract(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return checked(a.minor - b.minor, a.currency);
}

/** An amount `times` over (a fine per day × days), `times` a whole number. */
export function multiply(a: Money, times: number): Money {
  if (!Number.isSafeInteger(times)) throw new RangeError(`a multiple is a whole number: ${times}`);
  return checked(a.minor * times, a.currency);
}

/** Negative, zero or positive as `a` is less than, equal to or more than `b`. */
export function compare(a: Money, b: Money): number {
  sameCurrency(a, b);
  return Math.sign(a.minor - b.minor);
}

/** The smaller of two amounts (a fine and its cap). */
export function smaller(a: Money, b: Money): Money {
  return compare(a, b) <= 0 ? a : b;
}

/** An amount as people read it (`€2.50`, `¥250`), written exactly from its digits, never through a float. */
export function formatMoney(amount: Money, locale = 'en'): string {
  const digits = minorUnitDigits(amount.currency);
  const units = String(Math.abs(amount.minor)).padStart(digits + 1, '0');
  const whole = units.slice(0, units.length - digits);
  const decimal = digits > 0 ? `${whole}.${units.slice(units.length - digits)}` : whole;
  const text = `${amount.minor < 0 ? '-' : ''}${decimal}`;
  // Intl formats a decimal string exactly (ECMA-402's Intl.NumberFormat v3).
  return new Intl.NumberFormat(locale, { style: 'currency', currency: amount.currency }).format(text as `${number}`);
}
