// Statistics (GET /progress/statistics?period=…): totals and averages for a week, month, year or
// all time, with bar charts of minutes per practice and active days per category.
import { t, number } from './i18n.js';
import { el } from './dom.js';
import { barChart } from './chart.js';

export const PERIODS = ['week', 'month', 'year', 'all'];
const KINDS = ['meditation', 'guided', 'breathing', 'workout', 'morse', 'focus'];
const CATEGORIES = ['mindfulness', 'workout', 'morse', 'focus'];

/** `period` is one of PERIODS; `on.period(p)` asks for another. */
export function statsSection(s, period, on) {
  const periodName = t(`stats.period.${period}`);
  const switcher = el('div', { class: 'segmented', role: 'group', 'aria-label': t('progress.period') });
  for (const p of PERIODS) {
    const button = el('button', { type: 'button', class: 'secondary', id: `stats-period-${p}`, 'aria-pressed': p === period ? 'true' : 'false' }, t(`stats.period.${p}`));
    button.addEventListener('click', () => on.period(p));
    switcher.append(button);
  }
  const section = el('section', { id: 'stats', 'aria-labelledby': 'stats-title' },
    el('h2', { id: 'stats-title' }, `${t('progress.statistics')} · ${periodName}`),
    switcher);
  const total = s.total || {};
  if (!total.sessions) {
    section.append(el('p', { class: 'muted' }, t('stats.nothing')));
    return section;
  }
  const card = (label, value, note) => el('div', { class: 'stat' }, el('span', { class: 'label' }, label), el('span', { class: 'value' }, value), note ? el('span', { class: 'label' }, note) : null);
  const sessions = total.sessions === 1 ? t('stats.oneSession') : t('stats.sessions', { count: number(total.sessions) });
  const days = total.activeDays === 1 ? t('stats.oneActiveDay') : t('stats.activeDays', { count: number(total.activeDays ?? 0) });
  section.append(el('div', { class: 'stats' },
    card(t('stats.total'), s.totalText, `${sessions} · ${days}`),
    card(t('stats.perDay'), s.averagePerDayText),
    card(t('stats.perSession'), s.averagePerSessionText),
  ));

  const byKind = KINDS.filter((k) => (s.byKind || {})[k]?.sessions).map((k) => {
    const seconds = s.byKind[k].seconds || 0;
    return { label: t(`kind.${k}`), value: seconds, text: s.byKindText[k] };
  });
  const byCategory = CATEGORIES.filter((c) => (s.byCategory || {})[c]?.sessions).map((c) => {
    const count = s.byCategory[c].activeDays || 0;
    return { label: t(`category.${c}`), value: count, text: count === 1 ? t('stats.oneActiveDay') : t('stats.activeDays', { count: number(count) }) };
  });
  section.append(el('div', { class: 'charts' },
    barChart({ id: 'chart-kinds', title: `${t('chart.minutesByPractice')} · ${periodName}`, rows: byKind }),
    barChart({ id: 'chart-categories', title: `${t('chart.daysByCategory')} · ${periodName}`, rows: byCategory })));
  return section;
}
