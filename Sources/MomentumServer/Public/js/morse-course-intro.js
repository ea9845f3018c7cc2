// The course's introduction (issue 39): two short screens, once per browser, for a learner who
// has not started — what the Koch method is and what wpm means, then how a level is passed and
// what QSO practice is and when it opens. The numbers are the server's: the learner's speeds
// (GET /morse/settings) and the core's rules (`levelRule`, `qso` of GET /morse/progress).
import { t, number } from './i18n.js';
import { el } from './dom.js';

const KEY = 'momentum.morseIntro';

/** Whether to show the introduction: a learner at the start who has not seen it here. */
export function wantsIntroduction(progress) {
  try {
    if (window.localStorage.getItem(KEY) === '1') return false;
  } catch {
    return false;
  }
  const fresh = (direction) => direction.level === 1 && !(direction.statistics || []).some((c) => c.attempts > 0);
  return fresh(progress.receive) && fresh(progress.send);
}

function remember() {
  try { window.localStorage.setItem(KEY, '1'); } catch { /* shown again next time: harmless */ }
}

/** The introduction's screen `page` (0 or 1); `on.page(n)` turns, `on.done()` ends it. */
export function courseIntroScreen(page, progress, settings, on) {
  const finish = () => { remember(); on.done(); };
  const skip = el('button', { type: 'button', class: 'secondary', id: 'mo-course-skip' }, t('morse.ui.course.skip'));
  skip.addEventListener('click', finish);
  const step = el('p', { class: 'muted', id: 'mo-course-step' }, t('morse.ui.course.step', { page: number(page + 1), count: number(2) }));
  if (page === 0) {
    const next = el('button', { type: 'button', class: 'primary', id: 'mo-course-next' }, t('morse.ui.course.next'));
    next.addEventListener('click', () => on.page(1));
    return [el('section', { class: 'card morse-course-intro', id: 'mo-course', 'aria-labelledby': 'mo-course-title' },
      step,
      el('h2', { id: 'mo-course-title', tabindex: '-1' }, t('morse.ui.course.kochTitle')),
      el('p', {}, t('morse.ui.course.koch')),
      el('h3', {}, t('morse.ui.course.wpmTitle')),
      el('p', { id: 'mo-course-wpm' }, t('morse.ui.course.wpm', { wpm: number(settings.characterWPM), effective: number(settings.effectiveWPM) })),
      el('div', { class: 'actions' }, next, skip))];
  }
  const rule = progress.levelRule || {};
  const qso = progress.qso || {};
  const begin = el('button', { type: 'button', class: 'primary', id: 'mo-course-begin' }, t('morse.ui.course.begin'));
  begin.addEventListener('click', finish);
  const back = el('button', { type: 'button', class: 'secondary', id: 'mo-course-back' }, t('morse.ui.course.back'));
  back.addEventListener('click', () => on.page(0));
  return [el('section', { class: 'card morse-course-intro', id: 'mo-course', 'aria-labelledby': 'mo-course-title' },
    step,
    el('h2', { id: 'mo-course-title', tabindex: '-1' }, t('morse.ui.course.levelTitle')),
    el('p', { id: 'mo-course-level' }, t('morse.ui.course.level', {
      attempts: number(rule.minimumAttempts), percent: number(rule.minimumPercent), newest: number(rule.minimumNewestAttempts),
    })),
    el('h3', {}, t('morse.ui.course.qsoTitle')),
    el('p', { id: 'mo-course-qso' }, t('morse.ui.course.qso', { level: number(qso.recommendedLevel) })),
    el('div', { class: 'actions' }, begin, back))];
}
