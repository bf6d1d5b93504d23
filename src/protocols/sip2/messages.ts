/**
 * @module The SIP2 2.00 messages the listener takes: each request's code, the width of its fixed fields (in
 * the order the specification lists them) and the answer's code. A request shorter than its fixed fields is
 * malformed; what follows them is `XXvalue|` variable fields.
 */

export interface RequestSpec {
  /** The specification's name for it. */
  name: string;
  /** The widths of its fixed fields, in order. */
  fixed: readonly number[];
  /** The code of the answer. */
  answer: string;
}

/** The requests answered, by code. 97 is handled before any of these (it asks for the last answer again). */
export const REQUESTS: Readonly<Record<string, RequestSpec>> = {
  '93': { name: 'Login', fixed: [1, 1], answer: '94' },
  '99': { name: 'SC Status', fixed: [1, 3, 4], answer: '98' },
  '23': { name: 'Patron Status Request', fixed: [3, 18], answer: '24' },
  '63': { name: 'Patron Information', fixed: [3, 18, 10], answer: '64' },
  '17': { name: 'Item Information', fixed: [18], answer: '18' },
  '11': { name: 'Checkout', fixed: [1, 1, 18, 18], answer: '12' },
  '09': { name: 'Checkin', fixed: [1, 18, 18], answer: '10' },
  '29': { name: 'Renew', fixed: [1, 1, 18, 18], answer: '30' },
  '35': { name: 'End Patron Session', fixed: [18], answer: '36' },
};

/**
 * The supported messages field (BX) of the ACS status: Y or N, in the specification's order, for patron
 * status, checkout, checkin, block patron, SC/ACS status, request SC/ACS resend, login, patron information,
 * end patron session, fee paid, item information, item status update, patron enable, hold, renew, renew all.
 */
export const SUPPORTED_MESSAGES = [
  '23',
  '11',
  '09',
  '01',
  '99',
  '97',
  '93',
  '63',
  '35',
  '37',
  '17',
  '19',
  '25',
  '15',
  '29',
  '65',
]
  .map((code) => (code in REQUESTS || code === '97' ? 'Y' : 'N'))
  .join('');

/** The protocol version the ACS status answers with. */
export const PROTOCOL_VERSION = '2.00';
