// The view every timed practice ends on — Meditate, Breathe and Workout alike: what was done and
// what was logged (the page's ending sentence), the interruptions of the sound, today against
// the goal and the streak (the server's words, GET /progress/today; no streak while hidden), a
// note kept with the logged session, and Done. Every number and sentence is the server's.
import { api } from './api.js';
import { t, boundAttributes, errorText } from './i18n.js';
import { el, announce } from './dom.js';
import { noteReport } from './outbox.js';

/**
 * The completion view for run `run` (with `ending` and `record`) of practice `kind`.
 * `prefix` makes the ids (`m` → `m-end`, `m-done`); `doneText` is what was done and logged;
 * `onDone()` goes back to the start.
 */
export function endView({ prefix, kind, run, doneText, onDone }) {
  const ending = (run && run.ending) || {};
  const record = run && run.record;
  const heading = el('h2', { id: `${prefix}-end-title`, tabindex: '-1' },
    t(ending.outcome === 'completed' ? 'end.completed' : 'end.stopped'));
  const done = el('button', { type: 'button', class: 'primary large', id: `${prefix}-done` }, t('end.done'));
  done.addEventListener('click', () => onDone());
  const today = el('div', { class: 'end-today', id: `${prefix}-end-today`, 'aria-live': 'polite' });
  const view = el('section', { class: 'card end-view', id: `${prefix}-end`, 'aria-labelledby': `${prefix}-end-title`, 'data-outcome': ending.outcome || 'stopped' },
    el('div', { class: 'end-mark', 'aria-hidden': 'true' }),
    heading,
    el('p', { class: 'end-done', id: `${prefix}-end-done` }, doneText),
    ending.soundText ? el('p', { class: 'muted', id: `${prefix}-end-sound` }, ending.soundText) : null,
    today,
    record ? noteForm(prefix, record) : run && run.local && run.report ? noteForm(prefix, { id: run.report.id, details: {} }, run.report) : null,
    el('div', { class: 'actions start-bar' }, done));
  // A practice played on this device is not in today's numbers until the server has its report.
  if (!(run && run.local)) showToday(today, kind).catch((error) => console.warn(error));
  return view;
}

/** Moves focus to the view's heading, so a screen reader starts there. */
export function focusEnd(root, prefix) {
  root.querySelector(`#${prefix}-end-title`)?.focus();
}

async function showToday(node, kind) {
  const today = await api(`/progress/today?kind=${encodeURIComponent(kind)}`);
  // The bar's width is set through the CSSOM: the page's CSP refuses style attributes.
  const bar = el('span');
  bar.style.setProperty('--fill', String(Math.max(0, Math.min(1, today.fill || 0))));
  node.replaceChildren(
    el('p', { class: today.goalReached ? 'end-goal reached' : 'end-goal', id: 'end-minutes' }, today.minutesText),
    today.goalMinutes ? el('div', { class: 'end-bar', role: 'presentation' }, bar) : null,
    today.streakText ? el('p', { class: 'end-streak', id: 'end-streak' }, today.streakText) : null);
}

/**
 * "Add a note": kept in the logged session's details (shown in the log), as the log's Edit does.
 * For a practice played on this device (`report`), the note goes with its report, or onto the
 * session it was logged as.
 */
function noteForm(prefix, record, report = null) {
  const id = `${prefix}-end-note`;
  const note = el('textarea', { id, name: 'note', rows: '2', ...boundAttributes('log.note') });
  note.value = (record.details || {}).note || '';
  const status = el('p', { class: 'muted', id: `${id}-status`, role: 'status' });
  const error = el('p', { class: 'error', id: `${id}-error`, role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', class: 'secondary', id: `${id}-save` }, t('end.saveNote'));
  const form = el('form', { class: 'form end-note', id: `${id}-form`, novalidate: '' },
    el('label', { for: id }, t('end.note')), note, error,
    el('div', { class: 'actions' }, save, status));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const details = { ...(record.details || {}) };
    if (note.value.trim()) details.note = note.value.trim();
    else delete details.note;
    try {
      const saved = report
        ? await noteReport(report.id, details.note || '')
        : await api(`/log/${encodeURIComponent(record.id)}`, { method: 'PATCH', body: { details } });
      record.details = saved.details || details;
      error.hidden = true;
      const said = t(saved.waits ? 'offline.run.noteKept' : 'end.noteSaved');
      status.textContent = said;
      announce(said);
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  });
  return form;
}
