// Progress: first a glance (js/progress-glance.js: today's goal rings, this week's days, the
// streaks as numbers), then the month calendar (pick a day to see its sessions), the sessions with edit and delete, streaks
// with jokers, habit strength, the year heat map and statistics with charts. Every sentence with
// a number ("1 day", "2 Tage", "Today: 12 min of your 25-minute goal") is the server's.
import { api } from './api.js';
import { t, number } from './i18n.js';
import { el, refocus, announce } from './dom.js';
import { calendarSection, markSelected } from './progress-calendar.js';
import { yearSection, revealStop } from './progress-year.js';
import { statsSection } from './progress-stats.js';
import { sessionsSection } from './progress-log.js';
import { todaySection, weekSection, markWeekSelected } from './progress-glance.js';
import { trackersSection, fetchTrackers, fetchTrackerMarks } from './progress-trackers.js';
import { onLive, whenNotTyping, keepingInput } from './live.js';

let root;
let month = null; // "YYYY-MM"
let year = null;
let shown = { calendar: null, year: null }; // the last views: their previous / next
let today = null;
let selected = null; // "YYYY-MM-DD" or null (recent sessions)
let period = 'month';
let stale = false; // a live change came while a session's edit form was open

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };
export const show = () => render();

// Live (js/live.js): a new or edited practice record, or a changed setting (day start, goals,
// jokers …), draws Progress again — not while a session's edit form is open (then after it
// closes) and not while the person types (then once they leave the field).
onLive(['practiceRecord', 'setting'], () => {
  if (!root || root.hidden || !root.isConnected) return; // show() fetches anew
  if (root.querySelector('[data-testid="log-edit"]')) {
    stale = true;
    return;
  }
  whenNotTyping(root, () => keepingInput(root, () => render()).catch(console.error));
});

function editClosed() {
  if (!stale || !root || root.hidden) return;
  whenNotTyping(root, () => keepingInput(root, () => render()).catch(console.error));
}

/** The month's calendar with the trackers' marks (`trackerMarks`, null without any). */
async function fetchCalendar() {
  const [cal, marks] = await Promise.all([
    api(`/progress/calendar${month ? `?month=${month}` : ''}`), month ? fetchTrackerMarks(month) : null,
  ]);
  cal.trackerMarks = marks && marks.month === cal.id ? marks : await fetchTrackerMarks(cal.id);
  return cal;
}
const fetchYear = () => api(`/progress/year${year ? `?year=${year}` : ''}`);
const fetchStats = () => api(`/progress/statistics?period=${period}`);

const handlers = {
  month: (delta) => changeMonth(delta).catch(console.error),
  select: (day) => selectDay(day).catch(console.error),
  year: (delta) => changeYear(delta).catch(console.error),
  period: (p) => changePeriod(p).catch(console.error),
  recent: () => selectDay(null).catch(console.error),
  changed: (focusId) => render(focusId),
  closed: () => editClosed(),
};

/** Draws everything; `focusId` is focused afterwards (after an edit or delete). */
async function render(focusId) {
  const [cal, streaks, stats, heat, trackers] = await Promise.all([
    fetchCalendar(), api('/progress/streaks'), fetchStats(), fetchYear(), fetchTrackers(),
  ]);
  month = cal.id;
  today = cal.today;
  year = heat.year;
  shown = { calendar: cal, year: heat };
  const sessions = await sessionsSection(selected, handlers);
  stale = false;
  root.replaceChildren(
    el('h1', { id: 'h-progress' }, t('nav.progress')),
    el('div', { class: 'glance' }, todaySection(streaks), weekSection(streaks, selected, handlers), streakSection(streaks)),
    // No trackers: no section (replaceChildren would write a null as the text "null").
    ...[trackersSection(trackers)].filter(Boolean),
    calendarSection(cal, selected, handlers),
    sessions,
    strengthSection(streaks),
    yearSection(heat, today, selected, handlers),
    statsSection(stats, period, handlers),
  );
  revealStop(root.querySelector('#year'));
  if (focusId) refocus(root, focusId);
}

async function replace(id, node, focusId) {
  root.querySelector(`#${id}`).replaceWith(await node);
  if (focusId) refocus(root, focusId);
}

/** Goes to the month the server named as the calendar's previous or next (`delta` −1 or 1). */
async function changeMonth(delta) {
  const target = delta < 0 ? shown.calendar?.previous : shown.calendar?.next;
  if (!target) return;
  month = target;
  const cal = await fetchCalendar();
  shown.calendar = cal;
  await replace('calendar', calendarSection(cal, selected, handlers), delta < 0 ? 'cal-prev' : 'cal-next');
}

async function changeYear(delta) {
  const target = delta < 0 ? shown.year?.previous : shown.year?.next;
  if (target == null) return;
  year = target;
  const heat = await fetchYear();
  shown.year = heat;
  await replace('year', yearSection(heat, today, selected, handlers), delta < 0 ? 'year-prev' : 'year-next');
  revealStop(root.querySelector('#year'));
}

async function changePeriod(p) {
  period = p;
  await replace('stats', statsSection(await fetchStats(), period, handlers), `stats-period-${p}`);
}

/** Shows the sessions of `day` (null: recent ones); the calendar follows to its month. */
async function selectDay(day) {
  selected = day;
  const focused = document.activeElement;
  if (day && day.slice(0, 7) !== month) {
    month = day.slice(0, 7);
    root.querySelector('#calendar').replaceWith(calendarSection(await fetchCalendar(), selected, handlers));
  } else {
    markSelected(root.querySelector('#calendar'), day);
  }
  markWeekSelected(root, day);
  for (const cell of root.querySelectorAll('#heatmap [data-day]')) cell.setAttribute('aria-selected', cell.dataset.day === day ? 'true' : 'false');
  const section = await sessionsSection(selected, handlers);
  root.querySelector('#log').replaceWith(section);
  if (!day || !focused || !focused.isConnected) refocus(root, 'log-title');
  const count = section.querySelectorAll('[data-testid="log-record"]').length;
  announce(`${section.querySelector('#log-title').textContent}: ${count === 1 ? t('stats.oneSession') : t('stats.sessions', { count: number(count) })}`);
}

const ORDER = ['mindfulness', 'workout', 'morse', 'focus'];

function rows(s) {
  return Object.entries(s.categories || {}).sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b));
}

function streakSection(s) {
  const section = el('section', { id: 'streaks', 'aria-labelledby': 'streaks-title' }, el('h2', { id: 'streaks-title' }, t('progress.streaks')));
  if (s.hidden) {
    section.append(el('p', { class: 'muted' }, t('progress.streaksHidden')));
    return section;
  }
  const grid = el('div', { class: 'stats' });
  for (const [category, row] of rows(s)) {
    const name = t(`category.${category}`);
    const card = el('div', { class: 'stat', 'data-category': category }, el('span', { class: 'label' }, name));
    card.append(el('span', { class: 'value' }, row.currentText ?? ''));
    card.append(el('span', { class: 'label' }, t('progress.longestStreak', { days: row.longestText ?? '' })));
    if (s.jokersEnabled && row.jokersHeld != null) {
      card.append(el('span', { class: 'label' }, t('streak.jokers', { held: row.jokersHeld, maximum: s.maximumJokers })));
    }
    grid.append(card);
  }
  section.append(grid);
  return section;
}

function strengthSection(s) {
  const grid = el('div', { class: 'stats' });
  for (const [category, row] of rows(s)) {
    const percent = Math.round((row.strength ?? 0) * (row.strength <= 1 ? 100 : 1));
    // The bar only draws the number above it, so assistive technology skips it.
    const bar = el('div', { class: 'meter', 'aria-hidden': 'true' }, el('span'));
    bar.firstChild.style.setProperty('--value', String(percent / 100));
    grid.append(el('div', { class: 'stat strength', 'data-category': category, id: `strength-${category}` },
      el('span', { class: 'label' }, t(`category.${category}`)),
      el('span', { class: 'value' }, number(percent / 100, { style: 'percent' })),
      bar));
  }
  return el('section', { id: 'strength', 'aria-labelledby': 'strength-title' },
    el('h2', { id: 'strength-title' }, t('progress.strength')),
    el('p', { class: 'muted' }, t('progress.strengthHelp')),
    grid);
}
