// Hands-free copy on the Morse overview (GET /morse/hands-free): words, call signs, Q codes or
// the person's own list, each sent in Morse, then spoken by the server's espeak-ng, then in Morse
// again. The plan is checked first (POST /morse/hands-free/items: a refusal's sentence shows
// before any sound); the server then renders the whole session as one WAV stream
// (GET /morse/hands-free.wav?plan=) that an <audio> element plays, so it goes on with the screen
// locked; the time that actually played is logged as Morse practice when it ends or is stopped
// (POST /morse/hands-free/listened), and the items are shown to check the copy against.
// The form's choices, defaults and bounds all come from the server's view.
import { api, newID } from './api.js';
import { t, errorText } from './i18n.js';
import { el, field, announce } from './dom.js';

/** The session playing (kept across redraws of the overview): its audio, plan and time listened. */
const session = {
  audio: null, plan: null, items: [], listenedMs: 0, lastPosition: null, id: null, state: 'idle', card: null,
};
/** The form's last choice while the page is open. */
let choice = null;

/** The hands-free card; `view` is GET /morse/hands-free. */
export function handsFreeCard(view) {
  choice = choice || {
    content: 'callSigns', count: view.count, list: '', language: view.language,
    pauseMs: view.pauseMs, itemGapMs: view.itemGapMs, repeatsMorse: view.repeatsMorse,
  };
  const card = el('section', { class: 'card morse-hands-free', id: 'mo-hf', 'aria-labelledby': 'mo-hf-title' },
    el('h2', { id: 'mo-hf-title' }, t('morse.handsFree.title')),
    el('p', { class: 'muted' }, t('morse.handsFree.intro')));
  session.card = card;
  if (view.speechProblem) {
    card.append(el('p', { class: 'error', id: 'mo-hf-unavailable' }, view.speechProblem));
    return card;
  }
  const contents = el('fieldset', { class: 'morse-qso-choices', id: 'mo-hf-contents' },
    el('legend', {}, t('morse.handsFree.contentLabel')),
    ...view.contents.map((content) => radio(content, t(`morse.handsFree.content.${content}`))));
  const count = el('input', {
    type: 'number', id: 'mo-hf-count', inputmode: 'numeric', value: String(choice.count),
    min: String(view.countBounds.min), max: String(view.countBounds.max), step: '1',
  });
  const countField = field('mo-hf-count', t('morse.handsFree.count'), count);
  const list = el('textarea', {
    id: 'mo-hf-list', rows: '5', autocapitalize: 'characters', autocomplete: 'off', spellcheck: 'false',
    maxlength: String(view.countBounds.max * (view.listEntryMaxLength + 1)),
  });
  list.value = choice.list;
  const listField = el('div', { class: 'field' }, el('label', { for: 'mo-hf-list' }, t('morse.handsFree.listLabel')), list);
  const language = el('select', { id: 'mo-hf-language' },
    ...view.languages.map((code) => el('option', { value: code, selected: code === choice.language ? '' : null },
      t(`morse.handsFree.language.${code}`))));
  const seconds = (id, valueMs, bounds) => el('input', {
    type: 'number', id, inputmode: 'decimal', step: '0.5', value: String(valueMs / 1000),
    min: String(bounds.min / 1000), max: String(bounds.max / 1000),
  });
  const pause = seconds('mo-hf-pause', choice.pauseMs, view.pauseBoundsMs);
  const gap = seconds('mo-hf-gap', choice.itemGapMs, view.itemGapBoundsMs);
  const repeat = el('input', { type: 'checkbox', id: 'mo-hf-repeat', checked: choice.repeatsMorse ? '' : null });
  const error = el('p', { class: 'error', id: 'mo-hf-error', role: 'alert', hidden: '' });
  const status = el('p', { class: 'muted', id: 'mo-hf-status', 'aria-live': 'polite' });
  const sent = el('details', { id: 'mo-hf-items', hidden: '' },
    el('summary', {}, t('morse.handsFree.items')), el('ol', { class: 'morse-hf-items' }));
  const start = el('button', { type: 'submit', class: 'primary', id: 'mo-hf-start' }, t('morse.handsFree.start'));
  const stop = el('button', { type: 'button', class: 'secondary', id: 'mo-hf-stop' }, t('morse.handsFree.stop'));
  const form = el('form', { class: 'form', id: 'mo-hf-form', novalidate: '' },
    contents, countField, listField, field('mo-hf-language', t('morse.handsFree.languageLabel'), language),
    field('mo-hf-pause', t('morse.handsFree.pause'), pause), field('mo-hf-gap', t('morse.handsFree.itemGap'), gap),
    el('label', { class: 'check', for: 'mo-hf-repeat' }, repeat, el('span', {}, t('morse.handsFree.repeat'))),
    error, status, el('div', { class: 'actions' }, start, stop));
  card.append(form, sent);

  const showContent = () => {
    listField.hidden = choice.content !== 'list';
    countField.hidden = choice.content === 'list';
  };
  const showState = () => {
    const playing = session.state !== 'idle';
    start.hidden = playing;
    stop.hidden = !playing;
    if (session.state === 'loading') status.textContent = t('morse.handsFree.loading');
    // The items once the session is over: the copy checked against what was sent.
    sent.hidden = playing || !session.items.length;
    sent.querySelector('ol').replaceChildren(...(sent.hidden ? [] : session.items.map((item) =>
      el('li', {}, el('span', { class: 'morse-char' }, item.sent)))));
  };
  session.showState = showState;
  session.status = status;
  session.error = error;
  showContent();
  showState();

  form.addEventListener('change', (event) => {
    if (event.target.name === 'hf-content') { choice.content = event.target.value; showContent(); }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    status.textContent = '';
    Object.assign(choice, {
      count: Number(count.value), list: list.value, language: language.value,
      pauseMs: Math.round(Number(pause.value) * 1000), itemGapMs: Math.round(Number(gap.value) * 1000),
      repeatsMorse: repeat.checked,
    });
    const plan = {
      content: choice.content, seed: view.seed, characterWPM: view.characterWPM, toneHertz: view.toneHertz,
      language: choice.language, pauseMs: choice.pauseMs, itemGapMs: choice.itemGapMs, repeatsMorse: choice.repeatsMorse,
    };
    if (choice.content === 'list') plan.list = choice.list.split('\n').map((line) => line.trim()).filter(Boolean);
    else plan.count = choice.count;
    start.disabled = true;
    try {
      const { items } = await api('/morse/hands-free/items', { method: 'POST', body: plan });
      play(plan, items);
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
    } finally {
      start.disabled = false;
    }
  });
  stop.addEventListener('click', () => finish(false));
  return card;
}

function radio(value, label) {
  const id = `mo-hf-content-${value}`;
  return el('div', { class: 'morse-qso-choice' },
    el('input', { type: 'radio', id, name: 'hf-content', value, checked: value === choice.content ? '' : null }),
    el('label', { for: id }, label));
}

/** The session's address: the plan travels in the URL, so any server of the household plays it. */
const sourceOf = (plan) => `/api/v1/morse/hands-free.wav?plan=${encodeURIComponent(JSON.stringify(plan))}`;

function play(plan, items) {
  stopAudio();
  const audio = new Audio();
  Object.assign(session, {
    audio, plan, items, listenedMs: 0, lastPosition: null, id: newID(), state: 'loading',
  });
  session.showState();
  // Events of an element already let go (stopped, or replaced by a new session) change nothing.
  const current = () => session.audio === audio;
  audio.addEventListener('playing', () => {
    if (!current()) return;
    session.state = 'playing';
    session.status.textContent = '';
    session.showState();
  });
  audio.addEventListener('timeupdate', () => {
    if (!current()) return;
    // Only what actually played counts: small steps forward, never a jump.
    const position = audio.currentTime;
    if (session.lastPosition != null) {
      const step = position - session.lastPosition;
      if (step > 0 && step < 2) session.listenedMs += step * 1000;
    }
    session.lastPosition = position;
  });
  audio.addEventListener('ended', () => { if (current()) finish(true); });
  audio.addEventListener('error', () => { if (current()) refused(sourceOf(plan)); });
  audio.src = sourceOf(plan);
  audio.play().catch(() => { /* a refused stream is told by the error event */ });
  mediaSession();
}

/** The stream was refused: ask for it once more to read the server's sentence. */
async function refused(url) {
  stopAudio();
  session.state = 'idle';
  let message = t('error.generic');
  try {
    const answer = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    const body = await answer.json();
    if (body && body.error && body.error.message) message = body.error.message;
  } catch { /* not JSON: the general sentence */ }
  session.status.textContent = '';
  session.error.textContent = message;
  session.error.hidden = false;
  session.showState();
}

/** Ends the session (played to its end, or stopped) and logs the time listened if it counts. */
async function finish(finished) {
  if (!session.audio) return;
  const { plan, id } = session;
  const listenedMs = Math.round(session.listenedMs);
  stopAudio();
  session.state = 'idle';
  session.showState();
  try {
    const answer = await api('/morse/hands-free/listened', { method: 'POST', body: { id, plan, listenedMs, finished } });
    const text = answer.logged ? t('morse.handsFree.logged') : t('morse.handsFree.notLogged');
    session.status.textContent = text;
    announce(text);
  } catch (failure) {
    session.error.textContent = errorText(failure);
    session.error.hidden = false;
  }
}

function stopAudio() {
  if (!session.audio) return;
  session.audio.pause();
  session.audio.removeAttribute('src');
  session.audio.load();
  session.audio = null;
  if ('mediaSession' in navigator) navigator.mediaSession.playbackState = 'none';
}

/** The lock screen names the session and its Stop stops it. */
function mediaSession() {
  if (!('mediaSession' in navigator)) return;
  navigator.mediaSession.metadata = new MediaMetadata({ title: t('morse.handsFree.title'), artist: 'Momentum' });
  navigator.mediaSession.playbackState = 'playing';
  try { navigator.mediaSession.setActionHandler('stop', () => finish(false)); } catch { /* unsupported action */ }
}

/** For tests: the session's state and time listened. */
window.momentumHandsFree = {
  get state() { return session.state; },
  get listenedMs() { return session.listenedMs; },
  get audio() { return session.audio; },
};
