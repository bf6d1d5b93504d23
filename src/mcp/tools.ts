/**
 * @module What the four tools do: start, get, follow and submit, each a few requests to the app as the
 * caller. A control is taken from the document as this caller is given it (one left out is refused for the
 * policy's reason), and its values are checked by the validator the app uses: a refusal reads as HTTP's.
 */
import { parse } from 'uri-template';
import { InvalidInput } from '../domain/errors.js';
import { validateInput } from '../domain/input.js';
import type { Decision } from '../domain/policy.js';
import type { AppClient } from './app-client.js';
import { type AgentControl, type AgentDocument, documentOf } from './document.js';
import { ToolError } from './errors.js';

/** Values an agent gives: a templated link's variables, or a control's fields. */
export type Values = Record<string, unknown>;

/** The root document. */
export async function start(client: AppClient): Promise<AgentDocument> {
  return get(client, client.root);
}

/** The document at a URL of the service. */
export async function get(client: AppClient, url: string): Promise<AgentDocument> {
  return documentOf(await client.request('GET', url));
}

/** The document a link of the document at `url` leads to, a templated link expanded with `values`. */
export async function follow(client: AppClient, url: string, rel: string, values: Values = {}): Promise<AgentDocument> {
  const from = await get(client, url);
  const link = from.links.find((l) => l.rel === rel);
  if (!link) {
    const rels = [...new Set(from.links.map((l) => l.rel))];
    const items = from.items?.length ? '; its items are reached with get and their href' : '';
    throw new ToolError(`no link "${rel}" on ${url}; its links are: ${rels.join(', ') || 'none'}${items}`);
  }
  if (!link.templated) {
    if (Object.keys(values).length > 0) {
      throw new ToolError(`the "${rel}" link of ${url} is not templated: follow it without values`);
    }
    return get(client, link.href);
  }
  return get(client, expand(link.href, values, rel));
}

/**
 * Submits the control `name` of the document at `url` with `values` (the fields not given keep the value
 * the control suggests, as a form would send them): its method to its href, the values as a JSON body,
 * or as query parameters for a GET control. The answer's status, `Location` and document.
 */
export async function submit(
  client: AppClient,
  url: string,
  name: string,
  values: Values = {},
): Promise<AgentDocument> {
  const read = await client.request('GET', url);
  const from = documentOf(read);
  const control = from.controls.find((c) => c.name === name);
  if (!control) throw absent(url, name, from, read.withheld?.get(name));
  const submitted: Values = { ...suggested(control), ...values };
  if (control.method === 'GET') {
    return documentOf(await client.request('GET', control.href, { query: queryOf(control, submitted) }));
  }
  checked(control, submitted);
  const body =
    control.method === 'DELETE' && control.fields.length === 0
      ? undefined
      : { json: submitted, contentType: control.contentType ?? 'application/json' };
  // A change or deletion of the document read applies to the version read, as a careful client sends it:
  // the values left out were filled in from that version, and another writer's change in between is a 412,
  // not silently undone.
  const ifMatch = read.etag !== undefined && control.href === from.url ? { ifMatch: read.etag } : {};
  return documentOf(await client.request(control.method, control.href, { ...(body && { body }), ...ifMatch }));
}

/**
 * A control the document does not offer: why not, when the policy refused it there (its refusal, word for
 * word and with its status, as submitting it over HTTP is answered), and the controls that are offered.
 */
function absent(url: string, name: string, from: AgentDocument, decision: Decision | undefined): ToolError {
  const there = from.controls.map((c) => c.name).join(', ') || 'none';
  const missing = `no control "${name}" on ${url} for this caller`;
  if (decision === undefined || decision.allowed) return new ToolError(`${missing}; the controls there are: ${there}`);
  const { message, status } = decision.refusal;
  return new ToolError(`${missing}: ${message}. The controls there are: ${there}`, status);
}

/** The values the control's fields carry: what submitting it unchanged sends. */
function suggested(control: AgentControl): Values {
  const values: Values = {};
  for (const field of control.fields) if (field.value !== undefined) values[field.name] = field.value;
  return values;
}

/**
 * Checks a body against the control's fields with the app's own validator (`validateInput`): the fields
 * this caller is offered, each required one present, each value of its type, bounds and choices. Throws
 * a `ToolError` in the very words the app's 400 would use.
 */
function checked(control: AgentControl, values: Values): void {
  try {
    validateInput({ fields: control.fields, mode: 'create' }, values);
  } catch (error) {
    if (error instanceof InvalidInput) throw new ToolError(error.message, 400, error.details);
    throw error;
  }
}

/**
 * A GET control's values as query parameters: a list repeats its parameter (`filter=a&filter=b`). Names
 * the control does not list are refused as the listing refuses them; each value's type and bounds are the
 * listing's to check, in its own words.
 */
function queryOf(control: AgentControl, values: Values): URLSearchParams {
  const accepted = control.fields.map((f) => f.name);
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (!accepted.includes(name)) {
      throw new ToolError(`unknown query parameter "${name}"; accepted: ${accepted.join(', ')}`, 400, {
        [name]: 'unknown parameter',
      });
    }
    for (const one of Array.isArray(value) ? value : [value]) {
      if (!['string', 'number', 'boolean'].includes(typeof one)) {
        throw new ToolError(`query parameter "${name}" must be a string, number or boolean, or a list of them`, 400, {
          [name]: 'must be a string, number or boolean, or a list of them',
        });
      }
      query.append(name, String(one));
    }
  }
  return query;
}

/** A link's RFC 6570 template expanded with `values`, each of which must name one of its variables. */
function expand(template: string, values: Values, rel: string): string {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(template);
  } catch {
    throw new ToolError(`the "${rel}" link is not a URI template that can be expanded`);
  }
  const variables = parsed.ast.parts.flatMap((part) =>
    part.type === 'expression' ? part.variables.map((v) => v.name) : [],
  );
  for (const name of Object.keys(values)) {
    if (!variables.includes(name)) {
      throw new ToolError(`the "${rel}" link has no variable "${name}"; its variables are: ${variables.join(', ')}`);
    }
  }
  return parsed.expand(values);
}
