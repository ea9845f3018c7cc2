// The sessions of the chosen day (or of the recent days, as the server counts them), each with Edit (length and note,
// PATCH /log/{id}) and Delete (after a confirmation, DELETE /log/{id}). `on.closed()` is called
// when an edit form is cancelled (Progress then draws what changed live meanwhile).
import { api } from './api.js';
import { t, locale, formatDay, errorText, boundAttributes } from './i18n.js';
import { el, field, announce, confirmDialog, refocus } from './dom.js';

/** The time zone the server counts days in (`progress.time-zone`); times are shown in it. */
let timeZone;

/**
 * The section for `day` ("YYYY-MM-DD", or null for recent sessions). The server picks the
 * sessions of a day as it counts days (`progress.time-zone` and the day start) and gives each
 * record its `day`; the page groups and labels by that, never by the browser's clock.
 * `on.changed(focusId)` redraws Progress after an edit or delete; `on.recent()` clears the day.
 */
export async function sessionsSection(day, on) {
  const section = el('section', { class: 'card', id: 'log', 'aria-labelledby': 'log-title' });
  const query = day
    ? `?day=${encodeURIComponent(day)}`
    : '?recent'; // the last days as the server counts them
  const answer = await api(`/log${query}`);
  timeZone = answer.timeZone;
  const records = (answer.records || []).sort((a, b) => b.start.localeCompare(a.start));
  const title = day ? t('log.sessionsOn', { date: formatDay(day, { weekday: 'long', day: 'numeric', month: 'long' }) }) : t('log.recent');
  section.append(el('h2', { id: 'log-title', tabindex: '-1' }, title));
  if (day) {
    const recent = el('button', { type: 'button', class: 'secondary', id: 'log-recent' }, t('log.showRecent'));
    recent.addEventListener('click', () => on.recent());
    section.append(el('div', { class: 'actions' }, recent));
  }
  if (!records.length) {
    section.append(el('p', { class: 'muted', id: 'log-none' }, day ? t('log.noneOnDay') : t('log.noneRecent')));
    return section;
  }
  const list = el('ul', { class: 'log-list', id: 'log-list' });
  for (const record of records) list.append(recordItem(record, !day, on));
  section.append(list);
  return section;
}

function summary(record, withDate) {
  // The date is the record's `day` as the server counts it; the time of day is in the same zone.
  let time;
  try {
    time = new Intl.DateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit', timeZone }).format(new Date(record.start));
  } catch {
    time = new Intl.DateTimeFormat(locale(), { hour: '2-digit', minute: '2-digit' }).format(new Date(record.start));
  }
  const when = withDate ? `${formatDay(record.day, { weekday: 'short', day: 'numeric', month: 'short' })} ${time}` : time;
  return `${when} · ${t(`kind.${record.kind}`)} · ${record.countedText}`;
}

function recordItem(record, withDate, on) {
  const id = `log-${record.id}`;
  const d = record.details || {};
  const extra = [d.preset, d.program, d.note].filter(Boolean).join(' · ');
  const edit = el('button', { type: 'button', class: 'secondary', id: `${id}-edit`, 'aria-describedby': `${id}-summary` }, t('action.edit'));
  const remove = el('button', { type: 'button', class: 'secondary danger', id: `${id}-delete`, 'aria-describedby': `${id}-summary` }, t('action.delete'));
  const item = el('li', { id, 'data-testid': 'log-record', 'data-kind': record.kind, 'data-day': record.day },
    el('div', { class: 'log-text' },
      el('p', { class: 'log-summary', id: `${id}-summary` }, summary(record, withDate)),
      extra ? el('p', { class: 'muted log-extra' }, extra) : null,
      // The server's sentences for the interruptions of the practice's sound, as they are.
      record.soundText ? el('p', { class: 'muted log-extra log-sound' }, record.soundText) : null),
    el('div', { class: 'actions' }, edit, remove));
  edit.addEventListener('click', () => {
    // The form takes the item's place inside its <li>; Cancel puts the item back.
    const form = editForm(record, on, () => {
      item.replaceWith(recordItem(record, withDate, on));
      refocus(document, `${id}-edit`);
      if (on.closed) on.closed();
    });
    item.replaceChildren(form);
    item.classList.add('editing');
    refocus(form, `${id}-minutes`);
  });
  remove.addEventListener('click', async () => {
    const ok = await confirmDialog(t('log.confirmDelete', { session: summary(record, true) }), t('action.delete'), t('action.cancel'));
    if (!ok) return;
    try {
      await api(`/log/${encodeURIComponent(record.id)}`, { method: 'DELETE' });
    } catch (e) {
      item.append(el('p', { class: 'error', role: 'alert' }, errorText(e)));
      return;
    }
    const next = item.nextElementSibling || item.previousElementSibling;
    await on.changed(next ? `${next.id}-edit` : 'log-title');
    announce(t('log.removed'));
  });
  return item;
}

function editForm(record, on, cancel) {
  const id = `log-${record.id}`;
  const initialMinutes = String(Math.max(1, Math.round(record.countedSeconds / 60)));
  const initialNote = (record.details || {}).note || '';
  const minutes = el('input', { type: 'number', id: `${id}-minutes`, name: 'minutes', ...boundAttributes('log.minutes'), value: initialMinutes, inputmode: 'numeric' });
  const note = el('input', { type: 'text', id: `${id}-note`, name: 'note', autocomplete: 'off', ...boundAttributes('log.note'), value: initialNote });
  const error = el('p', { class: 'error', id: `${id}-error`, role: 'alert', hidden: '' });
  const cancelButton = el('button', { type: 'button', class: 'secondary', id: `${id}-cancel` }, t('action.cancel'));
  cancelButton.addEventListener('click', cancel);
  const form = el('form', { class: 'form log-edit', id: `${id}-form`, novalidate: '', 'aria-labelledby': `${id}-form-title`, 'data-testid': 'log-edit' },
    el('p', { id: `${id}-form-title`, class: 'log-summary' }, `${t('log.edit')}: ${summary(record, true)}`),
    el('div', { class: 'form-grid' },
      field(`${id}-minutes`, t('log.length'), minutes, t('meditate.minutesUnit')),
      field(`${id}-note`, t('log.note'), note)),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: `${id}-save` }, t('action.save')), cancelButton));
  form.addEventListener('keydown', (event) => { if (event.key === 'Escape') cancel(); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {};
    if (minutes.value.trim() !== initialMinutes) body.durationMs = Math.round(Number(minutes.value || 0) * 60000);
    if (note.value.trim() !== initialNote) {
      const details = { ...(record.details || {}) };
      if (note.value.trim()) details.note = note.value.trim();
      else delete details.note;
      body.details = details;
    }
    if (!Object.keys(body).length) { cancel(); return; }
    try {
      await api(`/log/${encodeURIComponent(record.id)}`, { method: 'PATCH', body });
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
      return;
    }
    await on.changed(`${id}-edit`);
    announce(t('log.saved'));
  });
  return form;
}
