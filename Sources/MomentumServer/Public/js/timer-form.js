// The "New timer" form: name, length in minutes and a checklist (one item per line).
// The server checks the values; its message shows beside the field it is about.
import { api } from './api.js';
import { t, boundAttributes, fieldBounds } from './i18n.js';
import { el, field } from './dom.js';
import { submitForm } from './form-errors.js';

/** `created(timer)` is called with the server's answer. */
export function newTimerForm(created) {
  // No maxlength: a name over the limit is refused with the limit, never cut while typing.
  const name = el('input', { type: 'text', id: 't-name', name: 'name', autocomplete: 'off' });
  const minutes = el('input', { type: 'number', id: 't-minutes', name: 'minutes', ...boundAttributes('focus.minutes'), value: fieldBounds('focus.minutes').default, inputmode: 'numeric' });
  const items = el('textarea', { id: 't-items', name: 'items', rows: 3 });
  const error = el('p', { class: 'error', id: 't-error', role: 'alert', hidden: '' });
  // novalidate: the server's message says what is wrong, in the person's language.
  const form = el('form', { class: 'form card', id: 't-create', novalidate: '', 'aria-labelledby': 't-create-title' },
    el('h2', { id: 't-create-title' }, t('focus.new')),
    el('div', { class: 'form-grid' },
      field('t-name', t('focus.name'), name),
      field('t-minutes', t('focus.length'), minutes, t('meditate.minutesUnit'))),
    field('t-items', t('focus.checklistLines'), items),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 't-add' }, t('focus.create'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {
      name: name.value,
      durationMs: Math.round(Number(minutes.value || 0) * 60000),
      items: items.value.split('\n').map((line) => line.trim()).filter(Boolean),
    };
    let timer;
    const sent = await submitForm(form, error, { name, durationMs: minutes, items }, async () => {
      timer = await api('/timers', { method: 'POST', body });
    });
    if (sent) created(timer);
  });
  return form;
}
