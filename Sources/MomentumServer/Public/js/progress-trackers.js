// Quiet daily trackers on Progress (docs/notifications.md): one line per tracker — its name, its
// last seven days as small marks (yes filled, no hollow, unanswered faint: never a "no"), its run
// of yes days (the server leaves it out while streaks are hidden) — and, while the day its
// question is about is unanswered, the question with Yes and No. Passive on purpose: nothing
// shows until a tracker exists. Every sentence is the server's (GET /trackers).
import { api } from './api.js';
import { t, formatDay } from './i18n.js';
import { el, announce } from './dom.js';

/** The section, or null while the person has no tracker. */
export function trackersSection(view) {
  if (!view || !(view.trackers || []).length) return null;
  const list = el('ul', { class: 'trackers' });
  for (const tracker of view.trackers) list.append(trackerLine(tracker));
  return el('section', { id: 'trackers', 'aria-labelledby': 'trackers-title' },
    el('h2', { id: 'trackers-title' }, t('progress.trackers.title')),
    list);
}

function trackerLine(tracker) {
  const days = el('ol', { class: 'tracker-days', 'aria-label': tracker.daysText });
  for (const day of tracker.days || []) {
    const state = day.answer === true ? 'yes' : day.answer === false ? 'no' : 'open';
    const date = formatDay(day.day, { weekday: 'long', day: 'numeric', month: 'long' });
    const key = state === 'yes' ? 'progress.trackers.yesDay' : state === 'no' ? 'progress.trackers.noDay' : 'progress.trackers.openDay';
    days.append(el('li', { class: `tracker-day ${state}`, title: t(key, { day: date }), 'aria-hidden': 'true' }));
  }
  const line = el('li', { class: 'tracker', 'data-tracker': tracker.id },
    el('span', { class: 'tracker-name' }, tracker.name),
    days,
    tracker.runText ? el('span', { class: 'tracker-run muted' }, tracker.runText) : null);
  if (tracker.questionAnswer === undefined) line.append(questionButtons(tracker, line));
  return line;
}

/** The server's "Today?" with Yes and No (a screen reader hears its whole question); an answer
 * replaces the line with the server's view. */
function questionButtons(tracker, line) {
  const status = el('span', { class: 'tracker-status', role: 'status' });
  const answer = async (value, button) => {
    for (const b of line.querySelectorAll('button')) b.disabled = true;
    try {
      const changed = await api(`/trackers/${tracker.id}/days/${tracker.questionDay}`, { method: 'PUT', body: { answer: value } });
      const next = trackerLine(changed);
      line.replaceWith(next);
      announce(`${changed.name}: ${t(value ? 'progress.trackers.answerYes' : 'progress.trackers.answerNo')}`);
    } catch (error) {
      for (const b of line.querySelectorAll('button')) b.disabled = false;
      status.textContent = error.message || t('progress.trackers.failed');
      button.focus();
    }
  };
  const yes = el('button', { type: 'button', class: 'secondary small', 'data-answer': 'yes' }, t('progress.trackers.answerYes'));
  const no = el('button', { type: 'button', class: 'secondary small', 'data-answer': 'no' }, t('progress.trackers.answerNo'));
  yes.addEventListener('click', () => answer(true, yes));
  no.addEventListener('click', () => answer(false, no));
  return el('div', { class: 'tracker-question', role: 'group', 'aria-label': tracker.questionText },
    el('span', { class: 'tracker-asks', 'aria-hidden': 'true' }, tracker.questionShort),
    yes, no, status);
}

/** The person's trackers (null when they cannot be read: Progress shows without them). */
export const fetchTrackers = () => api('/trackers').catch(() => null);
/** A month's answered days, for the calendar's marks. */
export const fetchTrackerMarks = (month) => api(`/trackers/calendar?month=${month}`).catch(() => null);
