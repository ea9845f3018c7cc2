// The course at a glance (GET /morse/progress): per direction the level and its characters, the
// next practice or "due now", the level review, the weakest characters and a start button; the
// Morse streak; accuracy per character as column charts (with a table); the course settings.
import { t, number, listText, errorText } from './i18n.js';
import { el } from './dom.js';
import { columnChart } from './chart.js';
import { settingsCard } from './morse-settings.js';
import { patternView, dateText, percentText, directionName, scrollingTable, bandField } from './morse-text.js';

const DIRECTIONS = ['receive', 'send'];

/** The band receive training is heard on, kept while the page is open (a redraw reuses it). */
export const receiveChoice = { conditions: 'clean' };

/**
 * The overview's nodes; `on.start(direction)` starts a session, `on.changed(focusId)` redraws.
 * `qso` (the QSO practice card) sits right after the two training cards, then `handsFree`.
 */
export function overviewScreen(progress, settings, on, qso, handsFree) {
  const streak = progress.streak || { current: 0, longest: 0 };
  return [
    el('div', { class: 'morse-directions' }, ...DIRECTIONS.map((d) => directionCard(d, progress[d], on))),
    qso,
    ...(handsFree ? [handsFree] : []),
    progress.streaksHidden
      // Hidden streaks are hidden here too (the server sends no number, only that they are hidden).
      ? el('p', { class: 'card morse-streak muted', id: 'mo-streak' }, t('progress.streaksHidden'))
      : el('p', { class: 'card morse-streak', id: 'mo-streak' },
        el('span', { class: 'value' }, streak.current === 1 ? t('morse.ui.streakOne') : t('morse.ui.streakDays', { count: number(streak.current) })),
        el('span', { class: 'muted' }, t('morse.ui.streakLongest', { count: number(streak.longest) }))),
    accuracySection(progress),
    settingsCard(settings, on),
  ];
}

function directionCard(direction, course, on) {
  const id = `mo-${direction}`;
  const characters = course.characters || [];
  const newest = characters[characters.length - 1];
  const start = el('button', { type: 'button', class: 'primary', id: `mo-start-${direction}` }, t(`morse.ui.start.${direction}`));
  const error = el('p', { class: 'error', id: `${id}-error`, role: 'alert', hidden: '' });
  start.addEventListener('click', () => {
    start.disabled = true;
    error.hidden = true;
    on.start(direction).catch((failure) => {
      start.disabled = false;
      error.textContent = errorText(failure);
      error.hidden = false;
    });
  });
  const when = course.isDue
    ? el('p', { class: 'morse-due', id: `${id}-next` }, t('morse.ui.dueNow'))
    : el('p', { id: `${id}-next` }, t('morse.ui.nextPractice', { date: dateText(course.nextPractice) }));
  return el('section', { class: 'card morse-direction', id, 'aria-labelledby': `${id}-title` },
    el('h2', { id: `${id}-title` }, directionName(direction)),
    el('p', { class: 'morse-level', id: `${id}-level` }, t('morse.ui.level', { level: number(course.level), count: number(course.levelCount) })),
    el('p', { class: 'morse-characters', id: `${id}-characters`, 'aria-label': t('morse.ui.charactersLabel', { characters: listText(characters) }) },
      ...characters.map((c) => el('span', { class: c === newest ? 'newest' : null }, c))),
    newest ? el('p', { class: 'muted' }, t('morse.ui.newest', { character: newest })) : null,
    when,
    course.levelReviewDue ? el('p', { id: `${id}-review` }, t('morse.ui.levelReview', { date: dateText(course.levelReviewDue) })) : null,
    (course.weakest || []).length
      ? el('p', { id: `${id}-weakest` }, t('morse.ui.weakest', { characters: listText(course.weakest) }))
      : null,
    direction === 'receive'
      ? bandField('mo-receive-band', receiveChoice.conditions, 'morse.ui.receive.bandAbout', (value) => { receiveChoice.conditions = value; })
      : null,
    error,
    el('div', { class: 'actions' }, start));
}

function accuracySection(progress) {
  const section = el('section', { class: 'card', id: 'mo-accuracy', 'aria-labelledby': 'mo-accuracy-title' },
    el('h2', { id: 'mo-accuracy-title' }, t('morse.ui.accuracyTitle')));
  const practised = DIRECTIONS.filter((d) => (progress[d].statistics || []).some((c) => c.attempts > 0));
  if (!practised.length) {
    section.append(el('p', { class: 'muted', id: 'mo-accuracy-none' }, t('morse.ui.accuracyNone')));
    return section;
  }
  for (const direction of practised) {
    const rows = progress[direction].statistics.filter((c) => c.attempts > 0);
    section.append(columnChart({
      id: `mo-chart-${direction}`,
      title: t('morse.ui.accuracyChart', { direction: directionName(direction) }),
      columns: rows.map((c) => ({
        label: c.character, value: c.accuracy ?? 0,
        text: t('morse.ui.accuracyValue', { percent: percentText(c.accuracy ?? 0), correct: number(c.correct), attempts: number(c.attempts) }),
      })),
    }));
    section.append(accuracyTable(direction, rows));
  }
  return section;
}

function accuracyTable(direction, rows) {
  const head = el('tr', {},
    ...['morse.ui.column.character', 'morse.ui.column.pattern', 'morse.ui.column.correct', 'morse.ui.column.attempts', 'morse.ui.column.accuracy', 'morse.ui.column.response']
      .map((key) => el('th', { scope: 'col' }, t(key))));
  const body = rows.map((c) => el('tr', {},
    el('th', { scope: 'row', class: 'morse-char' }, c.character),
    el('td', {}, patternView(c.pattern)),
    el('td', {}, number(c.correct)),
    el('td', {}, number(c.attempts)),
    el('td', {}, percentText(c.accuracy ?? 0)),
    el('td', {}, c.averageResponseMs == null ? '–' : t('morse.ui.seconds', { value: number(c.averageResponseMs / 1000, { maximumFractionDigits: 1 }) }))));
  const summary = t('morse.ui.showTable', { direction: directionName(direction) });
  return el('details', { class: 'month-table', id: `mo-table-${direction}` },
    el('summary', {}, summary),
    scrollingTable(el('table', { class: 'data morse-table' }, el('thead', {}, head), el('tbody', {}, ...body)),
      t('morse.ui.accuracyChart', { direction: directionName(direction) })));
}
