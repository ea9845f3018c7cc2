// A finished session (POST /morse/sessions/{id}/end): how it went, each character's count, a
// quiet celebration when the level went up, and when to practise next.
import { t, number } from './i18n.js';
import { el, svg, announce } from './dom.js';
import { patternView, dateText, percentText, directionName, scrollingTable } from './morse-text.js';

/** `on.back()` returns to the overview, `on.again(direction)` starts another session. */
export function resultsScreen(ending, on) {
  const direction = ending.session.direction;
  const course = ending.progress[direction];
  const card = el('section', { class: 'card morse-results', id: 'mo-results', 'aria-labelledby': 'mo-results-title' },
    el('h2', { id: 'mo-results-title', tabindex: '-1' }, t('morse.ui.resultsTitle', { direction: directionName(direction) })));

  if (!ending.saved) {
    card.append(el('p', { id: 'mo-results-nothing' }, t('morse.ui.nothingSaved')));
  } else {
    card.append(el('div', { class: 'stats' },
      stat(t('morse.ui.resultRight'), t('morse.ui.correctOf', { correct: number(ending.correct), attempts: number(ending.attempts) }), 'mo-results-score'),
      stat(t('morse.ui.resultAccuracy'), percentText(ending.accuracy ?? 0), 'mo-results-accuracy'),
      stat(t('morse.ui.resultTime'), ending.trainingText, 'mo-results-time')));
  }
  if (ending.leveledUp) card.append(celebration(ending, course));
  else if (ending.saved) card.append(el('p', { id: 'mo-results-level' }, t('morse.ui.levelKept', { level: number(ending.nextLevel) })));

  if (ending.saved) {
    card.append(el('p', { id: 'mo-results-next' }, course.isDue || !course.nextPractice
      ? t('morse.ui.dueNow')
      : t('morse.ui.nextPractice', { date: dateText(course.nextPractice) })));
  }
  if (ending.loggedText) card.append(el('p', { class: 'muted', id: 'mo-results-logged' }, ending.loggedText));
  if ((ending.characters || []).length) card.append(characterTable(ending.characters));

  const back = el('button', { type: 'button', class: 'primary', id: 'mo-results-back' }, t('morse.ui.backToOverview'));
  const again = el('button', { type: 'button', class: 'secondary', id: 'mo-results-again' }, t(`morse.ui.again.${direction}`));
  back.addEventListener('click', () => on.back());
  again.addEventListener('click', () => { again.disabled = true; on.again(direction).catch(console.error); });
  card.append(el('div', { class: 'actions' }, back, again));

  const said = [t('morse.ui.resultsTitle', { direction: directionName(direction) })];
  if (ending.saved) said.push(t('morse.ui.correctOf', { correct: number(ending.correct), attempts: number(ending.attempts) }));
  if (ending.leveledUp) said.push(t('morse.ui.levelUp', { level: number(ending.nextLevel) }));
  announce(said.join('. '));
  return [card];
}

function stat(label, value, id) {
  return el('div', { class: 'stat' }, el('span', { class: 'label' }, label), el('span', { class: 'value', id }, value));
}

/** A calm card: the new level and the character it brings, with its pattern. */
function celebration(ending, course) {
  // The course after the session, as the server counts it: its last character is the new one.
  const added = (course.characters || []).at(-1);
  const pattern = (course.statistics || []).find((c) => c.character === added)?.pattern;
  return el('div', { class: 'morse-levelup', id: 'mo-levelup', role: 'group', 'aria-labelledby': 'mo-levelup-title' },
    svg('svg', { class: 'morse-levelup-mark', viewBox: '0 0 48 48', 'aria-hidden': 'true' },
      svg('circle', { cx: 24, cy: 24, r: 20 }),
      svg('path', { d: 'M15 25l6 6 12-13' })),
    el('h3', { id: 'mo-levelup-title' }, t('morse.ui.levelUp', { level: number(ending.nextLevel) })),
    added ? el('p', {}, t('morse.ui.newCharacterIs', { character: added }), ' ', pattern ? patternView(pattern) : null) : null,
    el('p', { class: 'muted' }, t('morse.ui.levelUpNext')),
    course.levelReviewDue ? el('p', { class: 'muted' }, t('morse.ui.levelReview', { date: dateText(course.levelReviewDue) })) : null);
}

function characterTable(characters) {
  return scrollingTable(el('table', { class: 'data morse-table', id: 'mo-results-table' },
    el('caption', { class: 'visually-hidden' }, t('morse.ui.perCharacter')),
    el('thead', {}, el('tr', {},
      ...['morse.ui.column.character', 'morse.ui.column.pattern', 'morse.ui.column.correct', 'morse.ui.column.attempts']
        .map((key) => el('th', { scope: 'col' }, t(key))))),
    el('tbody', {}, ...characters.map((c) => el('tr', {},
      el('th', { scope: 'row', class: 'morse-char' }, c.symbol.text),
      el('td', {}, patternView(c.symbol.pattern)),
      el('td', {}, number(c.correct)),
      el('td', {}, number(c.attempts)))))), t('morse.ui.perCharacter'));
}
