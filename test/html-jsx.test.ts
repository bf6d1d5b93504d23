/**
 * The HTML view writes its JSX itself rather than through hono/jsx; what it writes must be what hono/jsx
 * writes for the same markup, so that it could be swapped back without a golden page changing.
 */
import { jsx } from 'hono/jsx';
import { describe, expect, it } from 'vitest';
import { Fragment, h } from '../src/formats/html/jsx.js';

type Props = Record<string, unknown> | null;
type Build = (tag: string, props: Props, ...children: unknown[]) => unknown;

/** The same markup, built with either runtime. */
const samples: Record<string, (build: Build) => unknown> = {
  'escaped text and attributes': (b) => b('p', { title: `a "quoted" & <tagged> 'value'` }, `x < y & "z" 'w'`),
  'boolean attributes': (b) =>
    b('input', { type: 'checkbox', checked: true, required: false, disabled: true, 'data-back': true }),
  'void elements': (b) => b('div', null, b('br', null), b('img', { src: 'a.png', alt: '' }), b('wbr', null)),
  'React spellings': (b) => b('label', { className: 'c', htmlFor: 'f' }, 'L'),
  'numbers, absent values and nesting': (b) =>
    b(
      'ul',
      { 'data-n': 3 },
      [1, null, undefined, false, 'two'].map((item) => b('li', null, item as never)),
    ),
  'absent attributes': (b) => b('a', { href: undefined, rel: null, hidden: false }, 'x'),
};

describe('the HTML view writes what hono/jsx writes', () => {
  for (const [name, sample] of Object.entries(samples)) {
    it(name, () => {
      const ours = String(sample(h as Build));
      const hono = String(sample(jsx as Build));
      expect(ours).toBe(hono);
    });
  }

  it('a fragment is its children alone', () => {
    expect(String(h(Fragment as never, null, h('b', null, 'x'), 'y'))).toBe('<b>x</b>y');
  });
});
