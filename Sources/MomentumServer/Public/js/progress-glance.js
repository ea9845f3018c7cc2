// The top of Progress, read at a glance: a ring per goal for today (the minutes in the middle,
// a tick once the day counts), this week as seven days (filled once a day counted, the ring
// showing how far the goal got), and the streaks as numbers. The server computes every day, fill
// and sentence (GET /progress/streaks: `today`, `week`, `weekText`); this only draws them.
import { t, number, formatDay } from './i18n.js';
import { el } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';

/** A ring filled to `fill` (0–1), drawn with pathLength 100 so the arc is the fill's percent. */
function ring(fill, className) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 40 40');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  const percent = Math.round(Math.min(1, Math.max(0, fill)) * 100);
  // An empty arc is left out: a round cap would still draw a dot.
  for (const [cls, value] of percent > 0 ? [['ring-track', 100], ['ring-fill', percent]] : [['ring-track', 100]]) {
    const circle = document.createElementNS(SVG, 'circle');
    for (const [k, v] of Object.entries({ cx: 20, cy: 20, r: 16, pathLength: 100, class: cls, 'stroke-dasharray': `${value} 100` })) {
      circle.setAttribute(k, String(v));
    }
    svg.append(circle);
  }
  return svg;
}

/**
 * Today: a ring per category with a goal (and any other practised today): today's minutes in the
 * middle, "of 25 min" under the name, a tick once the day counts. The server's sentences
 * ("Today: 12 min of your 25 min goal", "Today counts", the streak) are what a screen reader
 * hears; the eye has the picture.
 */
export function todaySection(s) {
  const days = (s.today || []).filter((day) => day.goalMinutes != null || day.minutes > 0);
  const grid = el('div', { class: 'today-goals' });
  for (const day of days) {
    const card = el('div', { class: `today-ring${day.counts ? ' counted' : ''}`, id: `today-${day.category}`, 'data-category': day.category },
      el('div', { class: 'ring-box', 'aria-hidden': 'true' },
        ring(day.goalMinutes != null ? day.fill ?? 0 : day.counts ? 1 : 0, 'goal-ring'),
        el('span', { class: 'ring-number' }, number(day.minutes), el('small', {}, t('meditate.minutesUnit'))),
        day.counts ? el('span', { class: 'counts-tick' }, '✓') : null),
      el('span', { class: 'label', 'aria-hidden': 'true' }, t(`category.${day.category}`)),
      el('span', { class: 'ring-goal', 'aria-hidden': 'true' }, day.goalText ? t('progress.ringGoal', { goal: day.goalText }) : t('progress.ringNoGoal')),
      el('span', { class: 'visually-hidden today-minutes' }, `${t(`category.${day.category}`)}: ${day.minutesText}`));
    if (day.countsText) {
      card.append(el('p', { class: 'visually-hidden counts-mark', id: `today-${day.category}-counts` },
        `${day.countsText}. `, day.streakText ?? ''));
    }
    grid.append(card);
  }
  return el('section', { id: 'today', 'aria-labelledby': 'today-title' },
    el('h2', { id: 'today-title' }, t('progress.todayTitle')),
    grid);
}

/** This week, Monday to Sunday: a day to tap (its sessions show below, as the calendar's do). */
export function weekSection(s, selected, on) {
  const letters = t('calendar.weekdays').split(/\s+/);
  const list = el('ol', { class: 'week-days' });
  (s.week || []).forEach((day, index) => {
    const counted = (day.counts || []).length > 0;
    const fill = Math.max(0, ...Object.values(day.fill || {}));
    const minutes = Object.values(day.minutes || {}).reduce((a, b) => a + b, 0);
    const status = day.isFuture ? t('progress.weekDayFuture') : counted ? t('progress.weekDayCounted') : '';
    const label = [formatDay(day.day, { weekday: 'long', day: 'numeric', month: 'long' }),
      minutes > 0 ? `${number(minutes)} ${t('meditate.minutesUnit')}` : '', status].filter(Boolean).join(', ');
    const classes = ['week-day', counted ? 'counted' : '', minutes > 0 && !counted ? 'practised' : '', day.isToday ? 'today' : '', day.isFuture ? 'future' : ''].filter(Boolean);
    const button = el('button', {
      type: 'button', class: classes.join(' '), 'data-day': day.day, 'aria-label': label, title: label,
      'aria-pressed': day.day === selected ? 'true' : 'false',
    },
    el('span', { class: 'week-letter', 'aria-hidden': 'true' }, letters[index] ?? ''),
    el('span', { class: 'week-mark', 'aria-hidden': 'true' }, ring(fill, 'day-ring'),
      el('span', { class: 'week-num' }, String(Number(day.day.slice(8))))));
    if (day.isFuture) button.disabled = true;
    button.addEventListener('click', () => on.select(day.day));
    list.append(el('li', {}, button));
  });
  return el('section', { id: 'week', 'aria-labelledby': 'week-title' },
    el('div', { class: 'week-head' },
      el('h2', { id: 'week-title' }, t('progress.weekTitle')),
      el('p', { class: 'muted', id: 'week-summary' }, s.weekText ?? '')),
    list);
}

/** The week's buttons follow the chosen day without drawing the week again. */
export function markWeekSelected(root, day) {
  for (const button of root.querySelectorAll('#week button[data-day]')) {
    button.setAttribute('aria-pressed', button.dataset.day === day ? 'true' : 'false');
  }
}
