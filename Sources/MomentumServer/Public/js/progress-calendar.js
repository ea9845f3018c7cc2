// The month calendar: goal fills, counted and joker days, and a small mark on days a tracker was
// answered (`cal.trackerMarks`, GET /trackers/calendar). Each day is a button (one tab stop,
// arrow keys move between days) that shows the day's sessions below.
import { t, number, locale, formatDay } from './i18n.js';
import { el, roving } from './dom.js';

/** `on.month(delta)` changes the month; `on.select(day)` picks a day ("YYYY-MM-DD"). */
export function calendarSection(cal, selected, on) {
  const title = new Intl.DateTimeFormat(locale(), { month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(cal.year, cal.month - 1, 1)));
  const prev = el('button', { type: 'button', class: 'secondary icon-button', id: 'cal-prev', 'data-nav': 'prev', 'aria-label': t('action.previousMonth') }, '‹');
  const next = el('button', { type: 'button', class: 'secondary icon-button', id: 'cal-next', 'data-nav': 'next', 'aria-label': t('action.nextMonth') }, '›');
  if (!cal.previous) prev.disabled = true;
  if (!cal.next) next.disabled = true;
  prev.addEventListener('click', () => on.month(-1));
  next.addEventListener('click', () => on.month(1));

  const weekdays = t('calendar.weekdays').split(/\s+/);
  const table = el('table', { class: 'calendar', 'aria-labelledby': 'cal-title', 'aria-describedby': 'cal-help' },
    el('thead', {}, el('tr', {}, ...weekdays.map((d) => el('th', { scope: 'col' }, d)))));
  const body = el('tbody');
  const buttons = [];
  const marks = new Map((cal.trackerMarks?.days || []).map((d) => [d.day, d]));
  let start = -1;
  for (const week of cal.weeks || []) {
    const row = el('tr');
    for (const day of week) {
      if (!day) { row.append(el('td')); continue; }
      const button = dayButton(day, day.day === selected, marks.get(day.day));
      button.addEventListener('click', () => on.select(day.day));
      if (day.day === selected || (start < 0 && day.isToday)) start = buttons.length;
      buttons.push(button);
      row.append(el('td', {}, button));
    }
    body.append(row);
  }
  table.append(body);
  roving(buttons, { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 7, ArrowUp: -7 }, Math.max(0, start));
  return el('section', { class: 'card', id: 'calendar', 'aria-labelledby': 'cal-title' },
    el('div', { class: 'cal-head' }, prev, el('h2', { id: 'cal-title' }, el('span', { class: 'visually-hidden' }, `${t('progress.calendar')}: `), title), next),
    table,
    el('p', { class: 'muted center', id: 'cal-help' }, t('progress.pickDay')),
    el('ul', { class: 'legend' },
      el('li', {}, el('span', { class: 'day counted', 'aria-hidden': 'true' }), t('progress.legend.counted')),
      el('li', {}, el('span', { class: 'day joker', 'aria-hidden': 'true' }), t('progress.legend.joker')),
      marks.size ? el('li', {}, el('span', { class: 'tracker-mark all-yes', 'aria-hidden': 'true' }), t('progress.trackers.title')) : null));
}

function dayButton(day, isSelected, tracked) {
  const minutes = Object.values(day.minutes || {}).reduce((a, b) => a + b, 0);
  const fill = Math.max(0, ...Object.values(day.fill || {}));
  const marks = Object.values(day.streak || {});
  const classes = ['day'];
  if ((day.counts || []).length) classes.push('counted');
  else if (marks.some((m) => String(m).toLowerCase().includes('joker'))) classes.push('joker');
  if (day.isToday) classes.push('today');
  if (day.isFuture) classes.push('future');
  const fillNode = el('span', { class: 'fill', 'aria-hidden': 'true' });
  fillNode.style.setProperty('--fill', String(Math.min(1, fill)));
  const status = classes.includes('counted') ? t('progress.legend.counted') : classes.includes('joker') ? t('progress.legend.joker') : '';
  const date = formatDay(day.day, { weekday: 'long', day: 'numeric', month: 'long' });
  const label = [date, minutes > 0 ? `${number(minutes)} ${t('meditate.minutesUnit')}` : '', status, tracked?.text ?? ''].filter(Boolean).join(', ');
  return el('button', {
    type: 'button', class: classes.join(' '), 'data-day': day.day, 'aria-label': label, title: label,
    'aria-pressed': isSelected ? 'true' : 'false',
  }, fillNode, el('span', { class: 'num', 'aria-hidden': 'true' }, String(Number(day.day.slice(8)))),
  tracked ? el('span', { class: `tracker-mark ${tracked.allYes ? 'all-yes' : 'mixed'}`, 'aria-hidden': 'true' }) : null);
}

/** Marks `day` as the chosen one without drawing the month again. */
export function markSelected(section, day) {
  for (const button of section.querySelectorAll('button.day')) {
    button.setAttribute('aria-pressed', button.dataset.day === day ? 'true' : 'false');
  }
}
