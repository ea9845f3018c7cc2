// Progress: a month calendar with goal fills and streak marks, streaks with jokers, statistics.
import { api } from './api.js';
import { t, number, language } from './i18n.js';
import { el } from './dom.js';

let root;
let month = null; // "YYYY-MM"

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };
export const show = () => render();

function monthKey(year, m) {
  return `${year}-${String(m).padStart(2, '0')}`;
}

function shift(key, delta) {
  const [y, m] = key.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + delta, 1));
  return monthKey(d.getUTCFullYear(), d.getUTCMonth() + 1);
}

function durationText(seconds) {
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${number(minutes)} ${t('meditate.minutesUnit')}`;
  const h = Math.floor(minutes / 60);
  return `${number(h)}:${String(minutes % 60).padStart(2, '0')} h`;
}

async function render() {
  const query = month ? `?month=${month}` : '';
  const [cal, streaks, stats] = await Promise.all([
    api(`/progress/calendar${query}`),
    api('/progress/streaks'),
    api('/progress/statistics?period=month'),
  ]);
  month = monthKey(cal.year, cal.month);
  root.replaceChildren(
    el('h1', { id: 'h-progress' }, t('nav.progress')),
    calendar(cal),
    streakSection(streaks),
    statsSection(stats),
  );
}

function calendar(cal) {
  const title = new Intl.DateTimeFormat(language(), { month: 'long', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(Date.UTC(cal.year, cal.month - 1, 1)));
  const prev = el('button', { type: 'button', class: 'secondary icon-button', 'aria-label': t('action.previousMonth') }, '‹');
  const next = el('button', { type: 'button', class: 'secondary icon-button', 'aria-label': t('action.nextMonth') }, '›');
  prev.addEventListener('click', () => { month = shift(month, -1); render().then(() => root.querySelector('[data-nav="prev"]')?.focus()); });
  next.addEventListener('click', () => { month = shift(month, 1); render().then(() => root.querySelector('[data-nav="next"]')?.focus()); });
  prev.dataset.nav = 'prev';
  next.dataset.nav = 'next';

  const weekdays = t('calendar.weekdays').split(/\s+/);
  const table = el('table', { class: 'calendar', 'aria-labelledby': 'cal-title' },
    el('thead', {}, el('tr', {}, ...weekdays.map((d) => el('th', { scope: 'col' }, d)))));
  const body = el('tbody');
  const dateFormat = new Intl.DateTimeFormat(language(), { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  for (const week of cal.weeks || []) {
    const row = el('tr');
    for (const day of week) {
      if (!day) { row.append(el('td')); continue; }
      const date = parseDay(day.day);
      const minutes = Object.values(day.minutes || {}).reduce((a, b) => a + b, 0);
      const fill = Math.max(0, ...Object.values(day.fill || {}), 0);
      const marks = Object.values(day.streak || {});
      const classes = ['day'];
      if ((day.counts || []).length) classes.push('counted');
      else if (marks.some((m) => String(m).toLowerCase().includes('joker'))) classes.push('joker');
      if (day.isToday) classes.push('today');
      if (day.isFuture) classes.push('future');
      const fillNode = el('span', { class: 'fill', 'aria-hidden': 'true' });
      fillNode.style.setProperty('--fill', String(Math.min(1, fill)));
      const status = classes.includes('counted') ? t('progress.legend.counted') : classes.includes('joker') ? t('progress.legend.joker') : '';
      const label = [dateFormat.format(date), minutes > 0 ? `${number(minutes)} ${t('meditate.minutesUnit')}` : '', status].filter(Boolean).join(', ');
      row.append(el('td', {}, el('div', { class: classes.join(' '), role: 'img', 'aria-label': label, title: label },
        fillNode, el('span', { class: 'num', 'aria-hidden': 'true' }, String(date.getUTCDate())))));
    }
    body.append(row);
  }
  table.append(body);
  return el('section', { class: 'card', 'aria-labelledby': 'cal-title' },
    el('div', { class: 'cal-head' }, prev, el('h2', { id: 'cal-title' }, el('span', { class: 'visually-hidden' }, `${t('progress.calendar')}: `), title), next),
    table,
    el('ul', { class: 'legend' },
      el('li', {}, el('span', { class: 'day counted', 'aria-hidden': 'true' }), t('progress.legend.counted')),
      el('li', {}, el('span', { class: 'day joker', 'aria-hidden': 'true' }), t('progress.legend.joker'))));
}

function parseDay(day) {
  if (typeof day === 'string') {
    const [y, m, d] = day.split('-').map(Number);
    return new Date(Date.UTC(y, m - 1, d));
  }
  return new Date(Date.UTC(day.year, day.month - 1, day.day));
}

function streakSection(s) {
  const section = el('section', { 'aria-labelledby': 'streaks-title' }, el('h2', { id: 'streaks-title' }, t('progress.streaks')));
  if (s.hidden) {
    section.append(el('p', { class: 'muted' }, t('streak.hidden')));
  }
  const grid = el('div', { class: 'stats' });
  const order = ['mindfulness', 'workout', 'morse', 'focus'];
  const rows = Object.entries(s.categories || {}).sort(([a], [b]) => (order.indexOf(a) + 99) % 99 - (order.indexOf(b) + 99) % 99);
  for (const [category, row] of rows) {
    const name = t(`category.${category}`);
    const card = el('div', { class: 'stat' }, el('span', { class: 'label' }, name));
    if (!s.hidden && row.current != null) {
      card.append(el('span', { class: 'value' }, row.current === 1 ? t('streak.oneDay') : t('streak.days', { count: number(row.current) })));
      card.append(el('span', { class: 'label' }, t('streak.line', { category: name, current: number(row.current), longest: number(row.longest ?? 0) }).replace(`${name}: `, '')));
      if (s.jokersEnabled && row.jokersHeld != null) {
        card.append(el('span', { class: 'label' }, `${t('streak.jokers', { held: row.jokersHeld, maximum: s.maximumJokers })}`));
      }
    }
    const percent = Math.round((row.strength ?? 0) * (row.strength <= 1 ? 100 : 1));
    const meter = el('div', { class: 'meter', role: 'meter', 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent, 'aria-label': `${name}: ${t('streak.strength', { percent })}` }, el('span'));
    meter.firstChild.style.setProperty('--value', String(percent / 100));
    card.append(el('span', { class: 'label' }, t('streak.strength', { percent: number(percent) })), meter);
    grid.append(card);
  }
  section.append(grid);
  return section;
}

function statsSection(s) {
  const section = el('section', { 'aria-labelledby': 'stats-title' },
    el('h2', { id: 'stats-title' }, `${t('progress.statistics')} · ${t(`stats.period.${s.period || 'month'}`)}`));
  const total = s.total || {};
  if (!total.sessions) {
    section.append(el('p', { class: 'muted' }, t('stats.nothing')));
    return section;
  }
  const card = (label, value, note) => el('div', { class: 'stat' }, el('span', { class: 'label' }, label), el('span', { class: 'value' }, value), note ? el('span', { class: 'label' }, note) : null);
  const sessions = total.sessions === 1 ? t('stats.oneSession') : t('stats.sessions', { count: number(total.sessions) });
  const days = total.activeDays === 1 ? t('stats.oneActiveDay') : t('stats.activeDays', { count: number(total.activeDays ?? 0) });
  section.append(el('div', { class: 'stats' },
    card(t('stats.total'), durationText(total.seconds ?? 0), `${sessions} · ${days}`),
    card(t('stats.perDay'), durationText(s.averageSecondsPerDay || 0)),
    card(t('stats.perSession'), durationText(s.averageSecondsPerSession || 0)),
  ));
  return section;
}
