// A session's introduction: every character of the level with its pattern, newest first, each
// played once in turn (and again from its Play button); "Start training" begins the clock.
import { t, number } from './i18n.js';
import { el, announce } from './dom.js';
import * as audio from './morse-audio.js';
import { patternView, patternWords, directionName } from './morse-text.js';

/** Silence between two introduced characters: pacing of the page, not Morse timing. */
const BETWEEN_MS = 900;
let highlights = [];

function clearHighlights() {
  highlights.forEach(clearTimeout);
  highlights = [];
}

/** `on.begin()` starts training, `on.back()` leaves the session unsaved. */
export function introductionScreen(session, on) {
  clearHighlights();
  const items = session.introduction.map((entry, index) => {
    const { text, pattern } = entry.symbol;
    const play = el('button', {
      type: 'button', class: 'secondary icon-button', id: `mo-intro-play-${index}`,
      'aria-label': t('morse.ui.playCharacter', { character: text }),
    }, t('morse.ui.play'));
    const item = el('li', { class: 'morse-intro-item', id: `mo-intro-${index}` },
      el('span', { class: 'morse-char' }, text),
      patternView(pattern),
      index === 0 && text === session.newest.text ? el('span', { class: 'badge' }, t('morse.ui.newCharacter')) : null,
      play);
    play.addEventListener('click', () => {
      audio.unlock();
      audio.silence();
      clearHighlights();
      light(item, 0, audio.play(entry.elements, session.tone));
      announce(`${text}: ${patternWords(pattern)}`);
    });
    return item;
  });
  const begin = el('button', { type: 'button', class: 'primary', id: 'mo-begin' }, t('morse.ui.beginTraining'));
  const back = el('button', { type: 'button', class: 'secondary', id: 'mo-back' }, t('morse.ui.back'));
  const error = el('p', { class: 'error', id: 'mo-intro-error', role: 'alert', hidden: '' });
  const act = (action) => () => {
    clearHighlights();
    begin.disabled = true;
    back.disabled = true;
    action().catch((failure) => {
      console.error(failure);
      error.textContent = t('error.generic');
      error.hidden = false;
      begin.disabled = false;
      back.disabled = false;
    });
  };
  begin.addEventListener('click', act(on.begin));
  back.addEventListener('click', act(on.back));

  // Each character in turn, on the audio clock; the highlight only follows it for the eye.
  let offset = 0;
  session.introduction.forEach((entry, index) => {
    const ends = audio.play(entry.elements, session.tone, offset);
    light(items[index], offset, ends);
    offset = ends + BETWEEN_MS;
  });

  return [
    el('section', { class: 'card', id: 'mo-intro', 'aria-labelledby': 'mo-intro-title' },
      el('h2', { id: 'mo-intro-title' }, t('morse.ui.introTitle', { direction: directionName(session.direction), level: number(session.level) })),
      el('p', { class: 'muted' }, t('morse.ui.introHelp')),
      el('ol', { class: 'morse-intro' }, ...items),
      error,
      el('div', { class: 'actions' }, begin, back)),
  ];
}

function light(item, fromMs, toMs) {
  highlights.push(setTimeout(() => item.classList.add('playing'), fromMs));
  highlights.push(setTimeout(() => item.classList.remove('playing'), toMs));
}
