/**
 * @module A protocol request read from its arguments (OAI-PMH 2.0, §3.1 and §4): the verb, the arguments it
 * takes, each once, each of a legal form. Anything else is refused here, before anything is read, with the
 * error the protocol names for it.
 */
import { type DateBound, parseDateBound } from './dates.js';
import { OaiError } from './errors.js';

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'GetRecord',
  'ListIdentifiers',
  'ListRecords',
] as const;
export type Verb = (typeof VERBS)[number];

/** What each verb takes (§4): arguments it needs, arguments it may have, and one that must stand alone. */
const ARGUMENTS: Record<Verb, { required: readonly string[]; optional: readonly string[]; exclusive?: string }> = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], exclusive: 'resumptionToken' },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], exclusive: 'resumptionToken' },
};

/** The form each argument's value must have: the OAI-PMH schema's types, so every value echoed back is valid. */
const FORMS: Record<string, { test: (value: string) => boolean; expected: string }> = {
  identifier: {
    // An absolute URI without spaces or characters a URI never holds (the schema's anyURI).
    test: (value) => /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|\\^`]+$/.test(value) && value.length <= 1000,
    expected: 'a URI such as oai:<repository>:book/1',
  },
  metadataPrefix: {
    test: (value) => /^[A-Za-z0-9\-_.!~*'()]{1,100}$/.test(value),
    expected: 'a metadata prefix such as oai_dc',
  },
  from: { test: (value) => parseDateBound(value) !== undefined, expected: 'YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ' },
  until: { test: (value) => parseDateBound(value) !== undefined, expected: 'YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ' },
  set: {
    test: (value) => /^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/.test(value) && value.length <= 200,
    expected: 'a setSpec',
  },
  resumptionToken: { test: (value) => /^[\x21-\x7e]{1,2000}$/.test(value), expected: 'a resumption token' },
};

/** A request whose arguments are all legal, and the arguments as given (to be echoed in `<request>`). */
export type OaiRequest =
  | { verb: 'Identify' }
  | { verb: 'ListMetadataFormats'; identifier?: string }
  | { verb: 'ListSets'; resumptionToken?: string }
  | { verb: 'GetRecord'; identifier: string; metadataPrefix: string }
  | { verb: 'ListIdentifiers' | 'ListRecords'; start: ListStart }
  | { verb: 'ListIdentifiers' | 'ListRecords'; resumptionToken: string };

/** The first request of a list: its format and selection. */
export interface ListStart {
  metadataPrefix: string;
  from?: DateBound;
  until?: DateBound;
  set?: string;
}

export interface ParsedRequest {
  request: OaiRequest;
  /** The verb and arguments as sent, for the response's `<request>` element. */
  echo: Record<string, string>;
}

/** Reads a request's arguments (the query of a GET, the form of a POST). */
export function parseOaiRequest(params: URLSearchParams): ParsedRequest {
  const verbs = params.getAll('verb');
  const verb = verbs[0];
  if (verbs.length !== 1 || !isVerb(verb)) {
    throw new OaiError(
      'badVerb',
      verbs.length === 0
        ? 'the verb argument is missing'
        : verbs.length > 1
          ? 'the verb argument is repeated'
          : `the verb is not one of ${VERBS.join(', ')}`,
    );
  }
  const rule = ARGUMENTS[verb];
  const args: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name === 'verb') continue;
    if (name !== rule.exclusive && !rule.required.includes(name) && !rule.optional.includes(name)) {
      throw new OaiError('badArgument', `${verb} takes no argument named ${legible(name)}`);
    }
    if (name in args) throw new OaiError('badArgument', `the ${name} argument is repeated`);
    const form = FORMS[name];
    if (form && !form.test(value)) throw new OaiError('badArgument', `${name} must be ${form.expected}`);
    args[name] = value;
  }
  const names = Object.keys(args);
  if (rule.exclusive && names.includes(rule.exclusive)) {
    if (names.length > 1) throw new OaiError('badArgument', `${rule.exclusive} must be the only argument besides verb`);
  } else {
    const missing = rule.required.find((name) => !(name in args));
    if (missing) throw new OaiError('badArgument', `${verb} needs the ${missing} argument`);
  }
  return { request: requestOf(verb, args), echo: { verb, ...args } };
}

function requestOf(verb: Verb, args: Record<string, string>): OaiRequest {
  switch (verb) {
    case 'Identify':
      return { verb };
    case 'ListMetadataFormats':
      return { verb, ...(args.identifier !== undefined && { identifier: args.identifier }) };
    case 'ListSets':
      return { verb, ...(args.resumptionToken !== undefined && { resumptionToken: args.resumptionToken }) };
    case 'GetRecord':
      return { verb, identifier: args.identifier as string, metadataPrefix: args.metadataPrefix as string };
    default:
      if (args.resumptionToken !== undefined) return { verb, resumptionToken: args.resumptionToken };
      return { verb, start: listStart(args) };
  }
}

function listStart(args: Record<string, string>): ListStart {
  const from = args.from === undefined ? undefined : parseDateBound(args.from);
  const until = args.until === undefined ? undefined : parseDateBound(args.until);
  if (from && until) {
    if (from.granularity !== until.granularity) {
      throw new OaiError('badArgument', 'from and until must have the same granularity');
    }
    if (from.start > until.start) throw new OaiError('badArgument', 'from is later than until');
  }
  return {
    metadataPrefix: args.metadataPrefix as string,
    ...(from && { from }),
    ...(until && { until }),
    ...(args.set !== undefined && { set: args.set }),
  };
}

function isVerb(value: string | undefined): value is Verb {
  return (VERBS as readonly string[]).includes(value as string);
}

/** An argument's name as a message may quote it: short, printable. */
function legible(name: string): string {
  return /^[A-Za-z_]{1,40}$/.test(name) ? name : 'that';
}
