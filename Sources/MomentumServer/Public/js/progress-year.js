// The year heat map (GET /progress/year): a column per week (Monday on top), a cell per day
// shaded by the server's level 0–4. The map is an ARIA grid with one tab stop (arrow keys move a
// day or a week); each cell is named by its date and level; a month table sums it up.
import { t, number, locale, formatDay, dayDate } from './i18n.js';
import { el, roving, touchOnly } from './dom.js';

const LEVELS = [0, 1, 2, 3, 4];

/** `on.year(delta)` changes the year; `on.select(day)` shows a day's sessions. */
export function yearSection(heat, today, selected, on) {
  const year = heat.year;
  const levels = new Map((heat.days || []).map((d) => [d.day, d.level]));
  const prev = el('button', { type: 'button', class: 'secondary icon-button', id: 'year-prev', 'aria-label': t('action.previousYear') }, '‹');
  const next = el('button', { type: 'button', class: 'secondary icon-button', id: 'year-next', 'aria-label': t('action.nextYear') }, '›');
  if (heat.next == null) next.disabled = true;
  if (heat.previous == null) prev.disabled = true;
  prev.addEventListener('click', () => on.year(-1));
  next.addEventListener('click', () => on.year(1));

  const days = [...levels.keys()].sort();
  const offset = days.length ? (dayDate(days[0]).getUTCDay() + 6) % 7 : 0; // Monday = 0
  const columns = Math.ceil((offset + days.length) / 7);
  const weekdays = t('calendar.weekdays').split(/\s+/);
  const grid = [];
  for (let c = 0; c < columns; c++) grid.push(Array.from({ length: 7 }, (_, r) => days[c * 7 + r - offset] || null));

  const monthName = new Intl.DateTimeFormat(locale(), { month: 'short', timeZone: 'UTC' });
  const head = el('tr', {}, el('td', { class: 'corner' }));
  for (let c = 0; c < columns;) {
    const month = (grid[c].find(Boolean) || '').slice(5, 7);
    let span = 1;
    while (c + span < columns && (grid[c + span].find(Boolean) || '').slice(5, 7) === month) span++;
    head.append(el('th', { scope: 'colgroup', colspan: span }, span >= 3 && month ? monthName.format(dayDate(`${year}-${month}-01`)) : ''));
    c += span;
  }
  const body = el('tbody');
  const rows = [];
  for (let r = 0; r < 7; r++) {
    const row = el('tr', {}, el('th', { scope: 'row', class: 'weekday' }, weekdays[r] || ''));
    rows.push(row);
    body.append(row);
  }
  const cells = [];
  let start = -1;
  const detail = el('p', { class: 'muted heat-detail', id: 'heat-detail', 'aria-hidden': 'true' }, ' ');
  for (let c = 0; c < columns; c++) {
    for (let r = 0; r < 7; r++) {
      const day = grid[c][r];
      if (!day) { rows[r].append(el('td', { class: 'pad', role: 'gridcell' })); continue; }
      const future = today && day > today;
      const level = levels.get(day) || 0;
      const label = future ? formatDay(day) : `${formatDay(day)}: ${t(`progress.level.${level}`)}`;
      const cell = el('td', {
        class: `heat l${level}${future ? ' future' : ''}${day === today ? ' today' : ''}`,
        role: 'gridcell', 'aria-label': label, title: label, 'data-day': day, 'data-level': level,
        'aria-selected': day === selected ? 'true' : 'false',
      });
      cell.addEventListener('click', () => on.select(day));
      cell.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); on.select(day); }
      });
      cell.addEventListener('focus', () => { detail.textContent = label; });
      cell.addEventListener('mouseenter', () => { detail.textContent = label; });
      if (day === selected || (start < 0 && day === today)) start = cells.length;
      rows[r].append(cell);
      cells.push(cell);
    }
  }
  // Cells are added week by week, so a day is ±1 and a week is ±7.
  roving(cells, { ArrowDown: 1, ArrowUp: -1, ArrowRight: 7, ArrowLeft: -7 }, start >= 0 ? start : cells.length - 1);

  const table = el('table', { class: 'heatmap', role: 'grid', id: 'heatmap', 'aria-labelledby': 'year-title', 'aria-describedby': 'heat-help heat-summary' },
    el('thead', {}, head), body);
  return el('section', { class: 'card', id: 'year', 'aria-labelledby': 'year-title' },
    el('div', { class: 'cal-head' }, prev, el('h2', { id: 'year-title' }, t('progress.yearTitle', { year })), next),
    el('div', { class: 'heat-scroll' }, table),
    detail,
    el('p', { class: 'muted', id: 'heat-help' }, t(touchOnly() ? 'progress.heatHelpTouch' : 'progress.heatHelp')),
    legend(),
    el('p', { id: 'heat-summary' }, heat.summaryText || ''),
    monthTable(year, days, levels));
}

function legend() {
  return el('ul', { class: 'legend heat-legend' }, ...LEVELS.map((level) =>
    el('li', {}, el('span', { class: `swatch heat l${level}`, 'aria-hidden': 'true' }), t(`progress.level.${level}`))));
}

function counts(levels) {
  return {
    practised: levels.filter((l) => l >= 1).length,
    counted: levels.filter((l) => l >= 2).length,
    goal: levels.filter((l) => l === 4).length,
  };
}

function monthTable(year, days, levels) {
  const long = new Intl.DateTimeFormat(locale(), { month: 'long', timeZone: 'UTC' });
  const body = el('tbody');
  for (let m = 1; m <= 12; m++) {
    const key = `${year}-${String(m).padStart(2, '0')}`;
    const c = counts(days.filter((d) => d.startsWith(key)).map((d) => levels.get(d) || 0));
    body.append(el('tr', {}, el('th', { scope: 'row' }, long.format(dayDate(`${key}-01`))),
      el('td', {}, number(c.practised)), el('td', {}, number(c.counted)), el('td', {}, number(c.goal))));
  }
  return el('details', { class: 'month-table', id: 'year-table' },
    el('summary', {}, t('progress.heatTable')),
    el('table', { class: 'data' },
      el('caption', { class: 'visually-hidden' }, t('progress.yearTitle', { year })),
      el('thead', {}, el('tr', {},
        el('th', { scope: 'col' }, t('progress.column.month')),
        el('th', { scope: 'col' }, t('progress.column.practised')),
        el('th', { scope: 'col' }, t('progress.column.counted')),
        el('th', { scope: 'col' }, t('progress.column.goal')))),
      body));
}

/** Scrolls the map (on narrow screens) so the day with the tab stop is in view. */
export function revealStop(section) {
  const scroller = section.querySelector('.heat-scroll');
  const cell = section.querySelector('#heatmap [tabindex="0"]');
  if (!scroller || !cell) return;
  scroller.scrollLeft = Math.max(0, cell.offsetLeft - scroller.clientWidth / 2);
}
