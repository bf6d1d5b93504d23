// The circulation desk, at a keyboard and a barcode scanner (which types the code and presses Enter): each
// scan is sent as it comes, in order, its answer is listed under "This visit" (newest first), and the focus
// goes back to the barcode field for the next one. What was lent or refused is kept by this page alone.
// Without this script the forms still post (see src/formats/html/desk.tsx).

document.addEventListener('DOMContentLoaded', () => {
  const results = document.getElementById('desk-results');
  if (!results) return;
  const card = document.querySelector('form[rel="find-patron"]');
  if (card) card.addEventListener('submit', (event) => readCard(event, card));
  for (const form of document.querySelectorAll('form[data-desk]')) {
    const barcode = form.querySelector('[name="barcode"]');
    // Scans come faster than answers: each waits for the one before, so the list keeps their order.
    let queue = Promise.resolve();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = bodyOf(form);
      barcode.value = '';
      barcode.focus();
      if (!body.barcode) return;
      queue = queue.then(() => scan(form, body, results));
    });
  }
});

/**
 * A card is read where it was scanned: a card that names nobody says so beside the field, which keeps the
 * focus with its text selected (the next scan replaces it); a patron's card opens their desk.
 */
async function readCard(event, form) {
  event.preventDefault();
  const input = form.querySelector('[name="card_number"]');
  const slot = form.querySelector('[data-error-for="card_number"]');
  const target = new URL(form.action, window.location.href);
  target.searchParams.set('card_number', input.value.trim());
  let response;
  try {
    response = await fetch(target, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
  } catch {
    response = undefined;
  }
  if (response?.ok) {
    window.location.assign(target.href);
    return;
  }
  const problem = await response?.json().catch(() => null);
  slot.textContent = problem?.error?.message ?? 'The catalogue could not be reached: scan the card again.';
  slot.hidden = false;
  input.setAttribute('aria-invalid', 'true');
  input.focus();
  input.select();
}

/** The form's fields as the control's JSON body: integers typed, blanks left out. */
function bodyOf(form) {
  const body = {};
  for (const input of form.querySelectorAll('[name]')) {
    const value = input.value.trim();
    if (value === '') continue;
    body[input.name] = input.dataset.type === 'integer' && /^\d+$/.test(value) ? Number(value) : value;
  }
  return body;
}

async function scan(form, body, results) {
  const item = document.createElement('li');
  item.className = 'desk-result';
  item.dataset.barcode = body.barcode;
  item.append(part('barcode', body.barcode));
  results.prepend(item);
  let response;
  try {
    response = await fetch(form.action, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    });
  } catch {
    refused(item, 'The catalogue could not be reached: scan it again.');
    return;
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    refused(item, answer?.error?.message ?? `The request failed (${response.status}).`);
    return;
  }
  item.classList.add('done');
  item.append(' ', part('title', answer.title));
  if (form.dataset.desk === 'check-out') {
    item.append(' ', part('due', `Due ${new Date(answer.due_at).toLocaleDateString('en-CA')}`));
    const out = document.querySelector('[data-loans-out]');
    if (out && /^\d+$/.test(out.textContent.trim())) out.textContent = String(Number(out.textContent) + 1);
  } else {
    item.append(' ', part('placement', answer.placement));
    item.append(' ', part('fine', answer.fine ? `Fine charged: ${answer.fine.formatted}` : 'No fine'));
  }
}

/** The refusal, beside the barcode it answers. */
function refused(item, message) {
  item.classList.add('refused');
  item.append(' ', part('reason', message));
}

function part(name, text) {
  const span = document.createElement('span');
  span.className = name;
  span.textContent = text;
  return span;
}
