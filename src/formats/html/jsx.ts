/**
 * @module The HTML view's JSX, written straight to escaped text, byte for byte as hono/jsx writes the same
 * markup. Kept over hono/jsx, which renders inside an AsyncLocalStorage, for its figure in
 * docs/performance.md ("What stays and why").
 */

/** Markup already written and escaped: placed as it is, never escaped again. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may stand between tags: text (escaped), markup, and nothing (null, undefined, booleans). */
export type Child = Html | string | number | boolean | null | undefined | readonly Child[];

type Component<P> = (props: P) => Html | string | null;

/** A function component, given its attributes and children as props. */
export type FC<P = Record<string, never>> = (props: P & { children?: Child }) => Html | null;
export type PropsWithChildren<P> = P & { children?: Child };

/** Elements that have no end tag. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Attributes whose presence is their value: `true` writes `name=""`, `false` leaves them out. */
const BOOLEAN_ATTRIBUTES = new Set([
  'allowfullscreen',
  'async',
  'autofocus',
  'autoplay',
  'checked',
  'controls',
  'default',
  'defer',
  'disabled',
  'download',
  'formnovalidate',
  'hidden',
  'inert',
  'ismap',
  'itemscope',
  'loop',
  'multiple',
  'muted',
  'nomodule',
  'novalidate',
  'open',
  'playsinline',
  'readonly',
  'required',
  'reversed',
  'selected',
]);

/** Props that are not attributes; a development build of JSX adds `__self` and `__source` to each element. */
const NOT_ATTRIBUTES = new Set(['children', 'key', 'ref', '__self', '__source']);

/** React's spellings of a few attributes, as HTML names them. */
const ATTRIBUTE_NAMES: Record<string, string> = { className: 'class', htmlFor: 'for' };

// biome-ignore lint/suspicious/noControlCharactersInRegex: names with control characters are refused, as HTML does.
const VALID_NAME = /^[^\s"'<>/=`\\\x00-\x1f\x7f-\x9f]+$/;

/** Names found valid, memoized (bounded): a page writes the same few dozen names hundreds of times. */
const validNames = new Set<string>();

function validName(name: string): boolean {
  if (validNames.has(name)) return true;
  if (!VALID_NAME.test(name)) return false;
  if (validNames.size < 1024) validNames.add(name);
  return true;
}

export function h(
  tag: string | Component<Record<string, unknown>>,
  props: Record<string, unknown> | null,
  ...children: Child[]
): Html {
  if (typeof tag === 'function') {
    const given: Record<string, unknown> = Object.assign({}, props);
    if (children.length > 0) given.children = children.length === 1 ? children[0] : children;
    const result = tag(given);
    return result instanceof Html ? result : new Html(childrenText([result]));
  }
  if (!validName(tag)) throw new Error(`invalid tag name: ${tag}`);
  let text = `<${tag}`;
  if (props) {
    for (const key in props) {
      const name = ATTRIBUTE_NAMES[key] ?? key;
      if (NOT_ATTRIBUTES.has(name) || !validName(name)) continue;
      text += attribute(name, props[key]);
    }
  }
  if (VOID.has(tag) && children.length === 0) return new Html(`${text}/>`);
  return new Html(`${text}>${childrenText(children)}</${tag}>`);
}

/** `<>…</>`: the children alone. */
export function Fragment(props: { children?: Child }): Html {
  return new Html(childrenText([props.children]));
}

function attribute(name: string, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean' && BOOLEAN_ATTRIBUTES.has(name)) return value ? ` ${name}=""` : '';
  if (typeof value === 'function') throw new Error(`attribute ${name} cannot be a function`);
  return ` ${name}="${value instanceof Html ? value.text : escapeHtml(String(value))}"`;
}

function childrenText(children: readonly Child[]): string {
  let text = '';
  for (const child of children) {
    if (typeof child === 'string') text += escapeHtml(child);
    else if (child instanceof Html) text += child.text;
    else if (typeof child === 'number') text += child;
    else if (Array.isArray(child)) text += childrenText(child);
  }
  return text;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;
const ANY_SPECIAL = /[&<>"']/;

/** Text made safe as element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  // Most texts (names, numbers, hrefs) have nothing to escape: a test is cheaper than a replace.
  return ANY_SPECIAL.test(text) ? text.replace(SPECIAL, (c) => ENTITIES[c] as string) : text;
}

// The JSX types TypeScript checks the view against (`@jsx h`: looked up as `h.JSX`).
export declare namespace h {
  namespace JSX {
    type Element = Html;
    interface ElementChildrenAttribute {
      children: unknown;
    }
    interface IntrinsicElements {
      [tag: string]: Record<string, unknown>;
    }
  }
}
