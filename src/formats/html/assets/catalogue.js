// The catalogue's browsable view, enhanced: forms for PUT, PATCH and DELETE are sent as real requests
// with JSON bodies (typed from each input's data-type), errors appear next to the fields they concern,
// and fields whose values come from a collection (an author) offer matching choices as you type.
// Without this script every form still works: the service accepts `_method` on form posts.

document.addEventListener('DOMContentLoaded', () => {
  for (const form of document.querySelectorAll('form[data-method]')) {
    const method = form.dataset.method;
    if (method === 'GET') form.addEventListener('formdata', (event) => dropEmpty(event.formData));
    else form.addEventListener('submit', (event) => submit(event, form, method));
  }
  for (const input of document.querySelectorAll('input[data-options]')) offerChoices(input);
  for (const back of document.querySelectorAll('[data-back]')) {
    back.hidden = false;
    back.addEventListener('click', () => history.back());
  }
});

async function submit(event, form, method) {
  event.preventDefault();
  clearErrors(form);
  const body = {};
  for (const input of form.querySelectorAll('[name]')) {
    if (input.name === '_method') continue;
    if (input.type === 'checkbox') {
      body[input.name] = input.checked;
      continue;
    }
    // Emptied in a change, a field that may be cleared is: null.
    const cleared = method !== 'POST' && input.dataset.nullable !== undefined ? null : undefined;
    if (input.dataset.multiple !== undefined) {
      const values = input.value
        .split(/\r?\n/)
        .map((value) => value.trim())
        .filter((value) => value !== '');
      if (values.length > 0 || cleared === null) body[input.name] = values.length > 0 ? values : cleared;
      continue;
    }
    if (input.value === '') {
      if (cleared === null) body[input.name] = cleared;
      continue;
    }
    body[input.name] =
      input.dataset.type === 'integer' && /^-?\d+$/.test(input.value) ? Number(input.value) : input.value;
  }
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (method !== 'DELETE') {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(form.action, init);
  } catch {
    showError(form, 'The catalogue could not be reached. Try again.');
    return;
  }
  if (response.ok && (response.headers.get('Cache-Control') || '').includes('no-store')) {
    // An answer shown only once (a new token's secret): show it here instead of moving on.
    showOnce(form, await response.json(), response.headers.get('Location'));
    return;
  }
  if (response.ok) {
    location.assign(nextPage(response, form));
    return;
  }
  const problem = await response.json().catch(() => null);
  const error = problem?.error;
  showError(form, error ? error.message : `The request failed (${response.status}).`);
  if (error?.details) {
    for (const [name, message] of Object.entries(error.details)) {
      const slot = form.querySelector(`[data-error-for="${CSS.escape(name)}"]`);
      const input = form.querySelector(`[name="${CSS.escape(name)}"]`);
      if (slot) {
        slot.textContent = message;
        slot.hidden = false;
      }
      if (input) input.setAttribute('aria-invalid', 'true');
    }
  }
}

/** A query leaves out the fields left blank: the service reads an empty parameter as a mistake. */
function dropEmpty(formData) {
  for (const [name, value] of [...formData.entries()]) {
    if (value === '') formData.delete(name);
  }
}

/** Where a successful write leads: what it created, where a deletion points, or the page itself. */
function nextPage(response, form) {
  const location = response.headers.get('Location');
  if (location) return location;
  const link = /<([^>]+)>;\s*rel="collection"/.exec(response.headers.get('Link') || '');
  if (response.status === 204 && link) return link[1];
  if (form.getAttribute('rel') === 'login' || form.getAttribute('rel') === 'logout') return form.baseURI;
  return window.location.href;
}

function showOnce(form, body, location) {
  const section = document.createElement('section');
  section.className = 'once';
  section.setAttribute('role', 'status');
  const heading = document.createElement('h2');
  heading.textContent = 'Shown only now: copy what you need';
  const list = document.createElement('dl');
  for (const [name, value] of Object.entries(body)) {
    if (value === null || typeof value === 'object') continue;
    const term = document.createElement('dt');
    term.textContent = name;
    const detail = document.createElement('dd');
    detail.textContent = String(value);
    detail.dataset.field = name;
    list.append(term, detail);
  }
  section.append(heading, list);
  if (location) {
    const link = document.createElement('a');
    link.href = location;
    link.textContent = 'Continue';
    section.append(link);
  }
  form.after(section);
}

function showError(form, message) {
  const slot = form.querySelector('.form-error');
  slot.textContent = message;
  slot.hidden = false;
}

function clearErrors(form) {
  for (const slot of form.querySelectorAll('.field-error, .form-error')) {
    slot.textContent = '';
    slot.hidden = true;
  }
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
}

/**
 * A searchable picker for an id field whose values come from a collection (an author, a borrower): the
 * person types a few letters of a name and picks it; the form sends the id. The number box becomes a
 * hidden input that keeps the field's name and value, and a text box (the label's target) searches the
 * collection by name, ten at a time, so thousands of authors stay usable. Digits typed are taken as an id.
 */
function offerChoices(input) {
  const valueField = input.dataset.optionValue;
  const promptField = input.dataset.optionPrompt;
  const listId = `${input.id}-choices`;
  const box = document.createElement('input');
  box.type = 'text';
  box.id = input.id;
  box.className = 'picker';
  box.autocomplete = 'off';
  box.required = input.required;
  box.placeholder = 'Type a name';
  box.setAttribute('role', 'combobox');
  box.setAttribute('aria-autocomplete', 'list');
  box.setAttribute('aria-expanded', 'false');
  box.setAttribute('aria-controls', listId);
  const list = document.createElement('ul');
  list.id = listId;
  list.className = 'choices-list';
  list.setAttribute('role', 'listbox');
  list.hidden = true;
  input.removeAttribute('id');
  input.type = 'hidden';
  input.after(box, list);
  const lookup = input.parentElement.querySelector('a.choices');
  if (lookup) lookup.hidden = true;

  const collection = (params) => {
    const url = new URL(input.dataset.options, location.href);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : { data: [] }))
      .then((page) => page.data || [])
      .catch(() => []);
  };
  // The current value (an edit form's author) shows as its name.
  if (input.value) {
    box.value = input.value;
    collection({ filter: `${valueField}:${input.value}`, per_page: '1' }).then(([item]) => {
      if (item && box.value === input.value) box.value = String(item[promptField]);
    });
  }

  let timer;
  let active = -1;
  const options = () => [...list.querySelectorAll('[role="option"]')];
  const close = () => {
    list.hidden = true;
    box.setAttribute('aria-expanded', 'false');
    box.removeAttribute('aria-activedescendant');
    active = -1;
  };
  const choose = (option) => {
    input.value = option.dataset.value;
    box.value = option.textContent;
    close();
  };
  const highlight = (index) => {
    const all = options();
    if (all.length === 0) return;
    active = (index + all.length) % all.length;
    all.forEach((option, at) => {
      option.setAttribute('aria-selected', String(at === active));
    });
    box.setAttribute('aria-activedescendant', all[active].id);
  };
  box.addEventListener('input', () => {
    clearTimeout(timer);
    const words = box.value.trim();
    input.value = /^\d+$/.test(words) ? words : '';
    if (words === '' || /^\d+$/.test(words)) {
      close();
      return;
    }
    timer = setTimeout(async () => {
      const items = await collection({ query: words, per_page: '10' });
      if (box.value.trim() !== words) return;
      list.replaceChildren(
        ...items.map((item, at) => {
          const option = document.createElement('li');
          option.id = `${listId}-${at}`;
          option.setAttribute('role', 'option');
          option.setAttribute('aria-selected', 'false');
          option.dataset.value = String(item[valueField]);
          option.textContent = String(item[promptField]);
          // Chosen before the box loses focus (a click's blur would close the list first).
          option.addEventListener('mousedown', (event) => {
            event.preventDefault();
            choose(option);
          });
          return option;
        }),
      );
      if (items.length === 0) {
        const none = document.createElement('li');
        none.className = 'none';
        none.textContent = 'No match';
        list.append(none);
      }
      active = -1;
      list.hidden = false;
      box.setAttribute('aria-expanded', 'true');
    }, 200);
  });
  box.addEventListener('keydown', (event) => {
    if (list.hidden) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      highlight(active + (event.key === 'ArrowDown' ? 1 : -1));
    } else if (event.key === 'Enter' && active >= 0) {
      event.preventDefault();
      choose(options()[active]);
    } else if (event.key === 'Escape') {
      close();
    }
  });
  box.addEventListener('blur', close);
}
