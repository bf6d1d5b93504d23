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
    if (input.value === '') continue;
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

/** Choices for an id field, fetched a few at a time by name, so thousands of authors stay usable. */
function offerChoices(input) {
  const list = document.getElementById(input.getAttribute('list'));
  if (!list) return;
  let timer;
  input.type = 'text';
  input.inputMode = 'search';
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const words = input.value.trim();
      if (words === '' || /^\d+$/.test(words)) return;
      const url = new URL(input.dataset.options, location.href);
      url.searchParams.set('query', words);
      url.searchParams.set('per_page', '10');
      const response = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
      if (!response.ok) return;
      const page = await response.json();
      list.replaceChildren(
        ...page.data.map((item) => {
          const option = document.createElement('option');
          option.value = String(item[input.dataset.optionValue]);
          option.label = String(item[input.dataset.optionPrompt]);
          option.textContent = option.label;
          return option;
        }),
      );
    }, 200);
  });
}
