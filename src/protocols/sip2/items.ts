/** @module A copy as a terminal asks after it: 17 item information → 18. */
import { findItemInformation } from '../../db/queries/sip2.js';
import { sip2Date } from './dates.js';
import { count4, field, now, reasonOf } from './fields.js';
import { answerText, type Request } from './frame.js';
import { type Services, type Session, signedInTerminal } from './services.js';

/** SIP2's circulation status of a copy. */
const CIRCULATION_STATUS = {
  available: '03',
  on_loan: '04',
  on_hold: '08',
  in_transit: '10',
  withdrawn: '01',
} as const;

export async function itemInformation(services: Services, session: Session, request: Request): Promise<string> {
  const barcode = field(request, 'AB') ?? '';
  try {
    signedInTerminal(session.terminal);
    const item = barcode ? await findItemInformation(services.db, { barcode }) : undefined;
    if (!item) {
      return answerText(
        '18',
        ['01', '00', '01', now(services)],
        [
          ['AB', barcode],
          ['AJ', ''],
          ['AF', 'barcode names no copy'],
        ],
      );
    }
    // circulation status, security marker (00 other), fee type (01 other/unknown), transaction date.
    return answerText(
      '18',
      [CIRCULATION_STATUS[item.status], '00', '01', now(services)],
      [
        ['CF', count4(item.holds_queued)],
        ['AH', item.due_at === null ? undefined : sip2Date(item.due_at, services.timeZone)],
        ['AB', item.barcode],
        ['AJ', item.title],
        ['AQ', item.home_branch],
        ['AP', item.location_branch],
        ['CT', item.transit_to_branch ?? undefined],
      ],
    );
  } catch (error) {
    return answerText(
      '18',
      ['01', '00', '01', now(services)],
      [
        ['AB', barcode],
        ['AJ', ''],
        ['AF', reasonOf(services, error)],
      ],
    );
  }
}
