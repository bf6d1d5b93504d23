/**
 * @module The HTML view's JSX, written straight to text: `h` turns an element into escaped HTML at once,
 * so a page is a string as soon as its expression is evaluated. It writes what hono/jsx writes for the
 * same markup (attribute order, `name=""` for a true boolean attribute, `<input/>` for a void element,
 * the same five entities), which the golden pages check byte for byte.
 *
 * Why not hono/jsx: every render of it runs inside an AsyncLocalStorage, and on Node 20 the first one
 * turns on promise hooks for the whole process, for good: after one browser had asked for a page, every
 * JSON request paid about 10% more CPU (anonymous `GET /books/{id}`: 106–114 µs before, 120–125 µs
 * after). Its tree of nodes, built and then walked, was also a quarter of an HTML page's CPU.
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

/**
 * Names found valid, remembered: a page writes the same few dozen tags and attributes hundreds of times,
 * and testing each again was 6% of an HTML book page's CPU in a profile. Bounded all the same.
 */
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
    // Copied by Object.assign, not spread: on Node 20 a spread copy that is then given `children` cost
    // about 1.3 µs, and a page calls dozens of components.
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
