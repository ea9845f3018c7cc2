// Settings → Offline (issue 43): how much space this device gives the sound of practices kept for
// practising with the server out of reach, what is kept and how large each is, and "Update now".
// The budget belongs to this device (it is its storage), so it is kept in the browser, not on the
// server; js/offline-store.js keeps within it. Sizes are in MB of 1,000,000 bytes.
import { t, language, keptTime, boundAttributes } from './i18n.js';
import { el, field, announce } from './dom.js';
import { available, budgetBounds, budgetMB, setBudgetMB, validBudget, kept, refresh, onKeptChange } from './offline-store.js';

let card = null;
let status = ''; // '' | updating | failed | unavailable
let index = null;

onKeptChange((next) => {
  index = next;
  redraw();
});

/**
 * The card; Settings calls it on every render. What is kept is filled in as it is read and drawn
 * again whenever it changes, without touching the budget's field (the person may be typing).
 */
export function offlineCard() {
  card = el('section', { class: 'card form offline', id: 'o-offline', 'aria-labelledby': 'o-title' },
    el('h2', { id: 'o-title' }, t('offline.settings.title')),
    el('p', { class: 'muted' }, t('offline.settings.intro')),
    budgetForm(),
    state());
  kept().then((found) => {
    index = found;
    redraw();
  });
  return card;
}

function redraw(focusID) {
  const old = card?.querySelector('#o-state');
  if (!old || !card.isConnected) return;
  // A control that had the focus has it again in the new drawing.
  const focused = old.contains(document.activeElement) && document.activeElement.id ? document.activeElement.id : null;
  old.replaceWith(state());
  const target = focusID || focused;
  if (target) card.querySelector(`#${target}`)?.focus();
}

const number = (value) => new Intl.NumberFormat(language(), { maximumFractionDigits: 1 }).format(value);
const megabytes = (bytes) => number(Math.max(bytes, 0) / 1_000_000);

function budgetForm() {
  const input = el('input', {
    type: 'number', id: 'o-budget', name: 'o-budget', ...boundAttributes('offline.budgetMB'), value: budgetMB() ?? '',
    inputmode: 'numeric', 'aria-describedby': 'o-budget-error',
  });
  const error = el('p', { class: 'error', id: 'o-budget-error', role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', class: 'primary', id: 'o-save' }, t('action.save'));
  const form = el('form', { id: 'o-budget-form', novalidate: true },
    field('o-budget', t('offline.settings.budget'), input, t('offline.settings.unit')), error,
    el('div', { class: 'actions' }, save));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = validBudget(input.value);
    if (value === null) {
      error.textContent = t('offline.settings.budgetInvalid', { most: budgetBounds()?.max ?? '' });
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    error.hidden = true;
    input.removeAttribute('aria-invalid');
    update(() => setBudgetMB(value));
  });
  return form;
}

/** What is used, each practice kept or not, and "Update now". */
function state() {
  const budget = budgetMB();
  const updateButton = el('button', { type: 'button', class: 'secondary', id: 'o-update' },
    t(status === 'updating' ? 'offline.settings.updating' : 'offline.settings.update'));
  if (status === 'updating' || budget === 0 || !available()) updateButton.setAttribute('disabled', '');
  updateButton.addEventListener('click', () => update(refresh, 'o-update'));
  return el('div', { id: 'o-state' },
    el('p', { id: 'o-used', class: status === 'failed' || status === 'unavailable' ? 'error' : 'muted' }, summary(budget)),
    ...list(),
    el('div', { class: 'actions' }, updateButton));
}

function summary(budget) {
  if (!available() || status === 'unavailable') return t('offline.settings.unavailable');
  if (status === 'failed') return t('offline.settings.updateFailed');
  if (budget === 0) return t('offline.settings.off');
  if (!index) return t('offline.settings.none');
  const used = index.practices.filter((entry) => entry.state === 'kept').reduce((sum, entry) => sum + entry.bytes, 0);
  const time = keptTime(index.refreshedAt);
  return t('offline.settings.used', { used: megabytes(used), budget: number(budget), time });
}

function list() {
  if (!index || budgetMB() === 0 || !index.practices.length) return [];
  return [el('ul', { class: 'offline-list', id: 'o-list', 'aria-label': t('offline.settings.listLabel') },
    ...index.practices.map((entry) => el('li', { class: entry.state === 'kept' ? 'kept' : 'not-kept', 'data-key': entry.key },
      el('span', { class: 'name' }, entry.name),
      el('span', { class: 'size' }, describe(entry)))))];
}

function describe(entry) {
  switch (entry.state) {
    case 'kept': return t('offline.settings.size', { size: megabytes(entry.bytes) });
    case 'overBudget':
      return entry.exact ? t('offline.settings.overBudget', { size: megabytes(entry.bytes) }) : t('offline.settings.tooLarge');
    case 'openEnded': return t('offline.settings.openEnded');
    case 'noSpace': return t('offline.settings.noSpace');
    default: return t('offline.settings.failed');
  }
}

async function update(work, focusID) {
  status = 'updating';
  redraw(focusID);
  try {
    const result = await work();
    status = budgetMB() > 0 && (!result || result.unreached) ? 'failed' : '';
  } catch {
    status = 'unavailable'; // the browser lets the page store nothing
  }
  redraw(focusID);
  announce(summary(budgetMB()));
}
