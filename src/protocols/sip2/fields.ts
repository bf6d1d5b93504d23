/**
 * @module What every SIP2 answer is written with: the language field, Y/N, four-digit counts, a request's
 * fields, the transaction date, an amount as SIP2 writes it, and the words of a refusal.
 */
import { CatalogueError } from '../../domain/errors.js';
import { type Money, minorUnitDigits } from '../../domain/money.js';
import { sip2Date } from './dates.js';
import type { Request } from './frame.js';
import type { Services } from './services.js';

/** The language field: 000, unknown (the catalogue's words are its own). */
export const LANGUAGE = '000';

export const yn = (value: boolean) => (value ? 'Y' : 'N');
export const count4 = (n: number) => String(Math.min(n, 9999)).padStart(4, '0');

/** The words of a refusal: a catalogue error's own; anything else is logged and said plainly. */
export function reasonOf(services: Services, error: unknown): string {
  if (error instanceof CatalogueError) return error.message;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  services.log.error('sip2 transaction failed', {
    error: error instanceof Error ? error.name : String(error),
    ...(cause !== undefined && { cause }),
  });
  return 'the catalogue could not do this now; try again or ask at the desk';
}

export const field = (request: Request, tag: string) => request.fields.get(tag);
/** A field trimmed, or undefined when absent or blank. */
export const given = (request: Request, tag: string) => field(request, tag)?.trim() || undefined;

export function now(services: Services): string {
  return sip2Date(services.clock.now(), services.timeZone);
}

/** What a balance is as SIP2's fee amount (BV): a decimal of the currency's major unit, e.g. `2.50`. */
export function feeAmount(balance: Money): string {
  const digits = minorUnitDigits(balance.currency);
  const units = String(Math.abs(balance.minor)).padStart(digits + 1, '0');
  const whole = units.slice(0, units.length - digits);
  const text = digits > 0 ? `${whole}.${units.slice(units.length - digits)}` : whole;
  return balance.minor < 0 ? `-${text}` : text;
}
