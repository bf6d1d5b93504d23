/**
 * @module The answer to each SIP2 request (3M SIP2 2.00), as text without its trailer: 93 → 94, 99 → 98,
 * 23 → 24, 63 → 64, 17 → 18, 11 → 12, 09 → 10, 29 → 30, 35 → 36. A refusal is the answer's own "not ok"
 * form with the policy's reason as the screen message (AF); every request but 93 and 99 needs a login first.
 * Each is written in its file: `sign-in.ts` (93, 99, 35), `patrons.ts` (23, 63), `items.ts` (17),
 * `transactions.ts` (11, 09, 29), with `fields.ts` for what they share.
 */
import type { Request } from './frame.js';
import { itemInformation } from './items.js';
import { patronInformation, patronStatus } from './patrons.js';
import type { Services, Session } from './services.js';
import { acsStatus, endSession, login } from './sign-in.js';
import { checkin, checkout, renewal } from './transactions.js';

/** Answers a request; a login also sets the session's terminal. */
export async function answer(services: Services, session: Session, request: Request): Promise<string> {
  switch (request.code) {
    case '93':
      return login(services, session, request);
    case '99':
      return acsStatus(services, session);
    case '23':
      return patronStatus(services, session, request);
    case '63':
      return patronInformation(services, session, request);
    case '17':
      return itemInformation(services, session, request);
    case '11':
      return checkout(services, session, request);
    case '09':
      return checkin(services, session, request);
    case '29':
      return renewal(services, session, request);
    default:
      return endSession(services, session, request);
  }
}
