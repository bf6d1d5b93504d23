// The search page's box, enhanced: suggestions as a person types, as a WAI-ARIA 1.2 combobox
// (https://www.w3.org/WAI/ARIA/apg/patterns/combobox/): a listbox of titles and names under the box, arrow
// keys to move through it, Enter to choose, Escape to close. Where the suggestions come from is the URI
// template the page names (the root's `suggestions` link); without it, or without this script, the box is
// a plain search box and the form works as it is.

document.addEventListener('DOMContentLoaded', () => {
  for (const input of document.querySelectorAll('input[data-suggestions]')) offerSuggestions(input);
});

/** Fewer letters than this suggest nothing: one letter matches too much to help. */
const MIN_LETTERS = 2;
/** Typing pauses this long (ms) before suggestions are asked for, so each key does not send a request. */
const PAUSE = 150;

/** RFC 6570 expansion of the simple (`{x}`) and form-style query (`{?x,y}`, `{&x}`) expressions. */
function expand(template, values) {
  const encode = (value) =>
    encodeURIComponent(String(value)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return template.replace(/\{([?&]?)([^}]+)\}/g, (_, operator, names) => {
    const given = names.split(',').filter((name) => values[name] !== undefined && values[name] !== null);
    if (operator === '') return given.map((name) => encode(values[name])).join(',');
    const pairs = given.map((name) => `${name}=${encode(values[name])}`).join('&');
    return pairs ? operator + pairs : '';
  });
}

function offerSuggestions(input) {
  const template = input.dataset.suggestions;
  const form = input.form;
  const listId = `${input.id}-suggestions`;
  const list = document.createElement('ul');
  list.id = listId;
  list.className = 'suggestions';
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', 'Suggestions');
  list.hidden = true;
  // How many suggestions there are, said once they arrive (a screen reader does not see the list open).
  const status = document.createElement('span');
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', listId);
  input.autocomplete = 'off';
  input.after(list, status);

  let timer;
  let active = -1;
  let asked = 0;
  const options = () => [...list.querySelectorAll('[role="option"]')];
  const open = () => {
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    for (const option of options()) option.setAttribute('aria-selected', 'false');
    active = -1;
  };
  const highlight = (index) => {
    const all = options();
    if (all.length === 0) return;
    open();
    active = (index + all.length) % all.length;
    all.forEach((option, at) => {
      option.setAttribute('aria-selected', String(at === active));
    });
    all[active].scrollIntoView({ block: 'nearest' });
    input.setAttribute('aria-activedescendant', all[active].id);
  };
  const choose = (option) => {
    close();
    input.value = option.dataset.label;
    if (option.dataset.type === 'author') narrowToAuthor(form, option.dataset.href);
    else location.assign(option.dataset.href);
  };
  const show = (entries) => {
    list.replaceChildren(
      ...entries.map((entry, at) => {
        const option = document.createElement('li');
        option.id = `${listId}-${at}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', 'false');
        option.dataset.href = entry.href;
        option.dataset.type = entry.type;
        option.dataset.label = entry.label;
        const name = document.createElement('span');
        name.textContent = entry.label;
        const kind = document.createElement('span');
        kind.className = 'kind';
        kind.textContent = ` ${entry.type}`;
        option.append(name, kind);
        // Chosen before the box loses focus (a click's blur would close the list first).
        option.addEventListener('mousedown', (event) => {
          event.preventDefault();
          choose(option);
        });
        return option;
      }),
    );
    active = -1;
    input.removeAttribute('aria-activedescendant');
    status.textContent = entries.length === 1 ? '1 suggestion' : `${entries.length} suggestions`;
    if (entries.length > 0) open();
    else close();
  };
  const ask = async (words) => {
    const asking = ++asked;
    const entries = await suggestionsFor(template, words);
    // An answer to words no longer in the box (the person typed on) is dropped.
    if (asking === asked && input.value.trim() === words) show(entries);
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const words = input.value.trim();
    if (words.length < MIN_LETTERS) {
      asked++;
      close();
      return;
    }
    timer = setTimeout(() => ask(words), PAUSE);
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (options().length === 0) return;
      event.preventDefault();
      const start = list.hidden ? -1 : active;
      highlight(event.key === 'ArrowDown' ? start + 1 : start < 0 ? -1 : start - 1);
    } else if (event.key === 'Enter' && !list.hidden && active >= 0) {
      event.preventDefault();
      choose(options()[active]);
    } else if (event.key === 'Escape' && !list.hidden) {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener('blur', close);
}

/** The suggestions for these words, each `{type, label, href}`; none if the catalogue cannot be reached. */
async function suggestionsFor(template, words) {
  try {
    const url = new URL(expand(template, { query: words }), location.href);
    const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) return [];
    const body = await response.json();
    return (Array.isArray(body.data) ? body.data : []).flatMap((entry) => {
      const link = Array.isArray(entry.links) ? entry.links[0] : undefined;
      if (!link || typeof link.href !== 'string' || typeof entry.label !== 'string') return [];
      return [{ type: String(entry.type), label: entry.label, href: new URL(link.href, response.url).href }];
    });
  } catch {
    return [];
  }
}

/**
 * An author chosen: the search goes on among their books. The author's document names them (its `books`
 * link); the form is sent there, keeping its order, page size and facets, without the words typed or this
 * page's narrowing. Should that fail, the author's own page.
 */
async function narrowToAuthor(form, href) {
  try {
    const response = await fetch(href, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    const author = response.ok ? await response.json() : undefined;
    const books = Array.isArray(author?.links) ? author.links.find((link) => link.rel === 'books') : undefined;
    if (!books) throw new Error('the author names no books');
    form.action = new URL(books.href, response.url).href;
    form.elements.query.value = '';
    for (const kept of form.querySelectorAll('[data-narrowing]')) kept.disabled = true;
    form.requestSubmit();
  } catch {
    location.assign(href);
  }
}
