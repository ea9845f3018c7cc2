// Send: the target is shown (no pattern hint) and the person keys it.
// - Dit and dah keys: the on-screen buttons, or `.`/`F` = dit and `-`/`J` = dah. Each element
//   sounds as it is keyed; 2 s after the last one the character is complete and its pattern is
//   sent (`patterns`).
// - Straight key: hold Space (or the on-screen key). Press and gap lengths are measured with
//   performance.now(), read live by the server's decoder (POST /morse/decode) and, after 2 s of
//   silence, sent as `signals` for the session's adaptive decoder to read and score.
// - Paddles: the device's key (js/morse-keys.js: a VBand/Vail adapter's `[` `]`, Ctrl or mouse
//   buttons on the key pad, or on a touch screen the two on-screen paddles) through the iambic
//   keyer at the session's unit, with a live sidetone; after 2 s of rest the keyer's exact
//   elements go as `signals`, like a straight key.
// The straight key also takes the adapters' inputs. Backspace clears the character being keyed.
import { api } from './api.js';
import { t, errorText, fieldBounds } from './i18n.js';
import { el, svg, announce, touchOnly } from './dom.js';
import * as audio from './morse-audio.js';
import { patternView } from './morse-text.js';
import { keyPreferences, keyingSession, listenForKey, contactOf } from './morse-keys.js';

let mode = 'paddles'; // kept between sessions: 'paddles' (dit and dah keys), 'straight' or 'keyer'

/**
 * The dit, dah and gap lengths of the session's keyer, read off its introduction's sounds (the
 * shortest and longest tone, the shortest silence), so keyed elements sound as the course does.
 */
function keyerLengths(introduction) {
  const elements = introduction.flatMap((entry) => entry.elements);
  const on = elements.filter((e) => e.on).map((e) => e.ms);
  const off = elements.filter((e) => !e.on).map((e) => e.ms);
  return { dit: Math.min(...on), dah: Math.max(...on), gap: off.length ? Math.min(...off) : Math.min(...on) };
}

export function sendDrill(area, { tone, introduction, answer }) {
  const lengths = keyerLengths(introduction);
  let item = null;
  let patterns = []; // characters completed in this item
  let pattern = ''; // the character being keyed
  let soundFreeAt = 0; // performance.now() when the keyed elements have sounded
  let completion = null;
  let signals = []; // straight key: [{down: ms} | {up: ms}]
  let downAt = null;
  let upAt = null;
  let decodeRound = 0;
  let active = false; // an item is waiting for keying

  const target = el('p', { class: 'morse-target', id: 'mo-target' });
  const keyed = el('p', { class: 'morse-keyed', id: 'mo-pattern' });
  const decoded = el('p', { class: 'morse-decoded', id: 'mo-decoded' });
  const hint = el('p', { class: 'muted', id: 'mo-hint' });
  const mark = (shape) => svg('svg', { viewBox: '0 0 40 12', class: 'morse-key-mark', 'aria-hidden': 'true' }, shape);
  const dit = el('button', { type: 'button', class: 'morse-key', id: 'mo-dit', 'aria-label': t('morse.ui.ditKey') },
    mark(svg('circle', { cx: 20, cy: 6, r: 5 })), el('span', {}, t('morse.ui.ditLabel')));
  const dah = el('button', { type: 'button', class: 'morse-key', id: 'mo-dah', 'aria-label': t('morse.ui.dahKey') },
    mark(svg('rect', { x: 4, y: 1, width: 32, height: 10, rx: 5 })), el('span', {}, t('morse.ui.dahLabel')));
  const straightKey = el('button', { type: 'button', class: 'morse-key straight', id: 'mo-key', 'aria-describedby': 'mo-hint' }, t('morse.ui.straightKeyButton'));
  const clearButton = el('button', { type: 'button', class: 'secondary', id: 'mo-clear' }, t(touchOnly() ? 'morse.ui.clearTouch' : 'morse.ui.clear'));
  const paddlesMode = el('button', { type: 'button', class: 'secondary', id: 'mo-mode-paddles' }, t('morse.ui.modePaddles'));
  const straightMode = el('button', { type: 'button', class: 'secondary', id: 'mo-mode-straight' }, t('morse.ui.modeStraight'));
  const keyerMode = el('button', { type: 'button', class: 'secondary', id: 'mo-mode-keyer' }, t('morse.ui.modeKeyer'));
  // A touch screen gets two paddles to hold; elsewhere a pad takes an adapter's mouse buttons
  // (left dit, right dah) and the keys work anywhere on the page.
  const paddle = (contact, id, label) => el('button', { type: 'button', class: 'morse-key paddle', id, tabindex: '-1', 'data-contact': contact }, label);
  const ditPaddle = paddle('.', 'mo-paddle-dit', t('morse.ui.ditPaddle'));
  const dahPaddle = paddle('-', 'mo-paddle-dah', t('morse.ui.dahPaddle'));
  const paddlePad = el('div', { class: 'morse-key-pad', id: 'mo-paddle-pad', role: 'application', 'aria-label': t('morse.ui.paddlePad'), 'aria-describedby': 'mo-hint' }, t('morse.ui.paddlePad'));
  const keys = el('div', { class: 'morse-keys' }, dit, dah, straightKey, ditPaddle, dahPaddle, paddlePad);
  const keyedLabel = el('span', { class: 'muted' }, t('morse.ui.keyedSoFar'));
  area.append(
    el('p', { class: 'muted', id: 'mo-target-label' }, t('morse.ui.keyThis')),
    target,
    el('div', { class: 'segmented', role: 'group', 'aria-label': t('morse.ui.keyingMode') }, paddlesMode, straightMode, keyerMode),
    keys,
    el('div', { class: 'morse-keyed-row' }, keyedLabel, keyed, clearButton),
    decoded,
    hint);
  target.setAttribute('aria-describedby', 'mo-target-label');

  function setMode(next) {
    reset();
    mode = next;
    paddlesMode.setAttribute('aria-pressed', String(mode === 'paddles'));
    straightMode.setAttribute('aria-pressed', String(mode === 'straight'));
    keyerMode.setAttribute('aria-pressed', String(mode === 'keyer'));
    dit.hidden = mode !== 'paddles';
    dah.hidden = mode !== 'paddles';
    straightKey.hidden = mode !== 'straight';
    ditPaddle.hidden = mode !== 'keyer' || !touchOnly();
    dahPaddle.hidden = mode !== 'keyer' || !touchOnly();
    paddlePad.hidden = mode !== 'keyer' || touchOnly();
    if (mode === 'keyer' && item) freshKeyer();
    decoded.hidden = mode === 'paddles';
    // A straight key's pattern is what the decoder reads, shown in `decoded` instead.
    keyedLabel.hidden = mode === 'straight';
    keyed.hidden = mode === 'straight';
    // Keys on a keyboard, taps on a touch screen.
    const touch = touchOnly() ? 'Touch' : '';
    const hints = { paddles: 'morse.ui.hintPaddles', straight: 'morse.ui.hintStraight', keyer: 'morse.ui.hintKeyer' };
    hint.textContent = t(`${hints[mode]}${touch}`, { mode: t(`morse.keys.mode.${keyPreferences().mode}`) });
    area.dataset.mode = mode;
  }

  /** Forgets the character being keyed. */
  function reset() {
    clearTimeout(completion);
    completion = null;
    pattern = '';
    signals = [];
    downAt = null;
    upAt = null;
    decodeRound += 1;
    audio.keyUp();
    keyer?.reset();
    for (const button of [straightKey, ditPaddle, dahPaddle]) button.classList.remove('down');
    showKeyed();
    decoded.textContent = '';
  }

  // Paddles: the device's keyer, made for each item (the session's unit, the device's mode as it
  // is now), before the first press so the sidetone's worklet is there for it.
  let keyer = null;
  function freshKeyer() {
    keyer?.close();
    keyer = null;
    return keyerSession();
  }
  function keyerSession() {
    if (keyer) return keyer;
    keyer = keyingSession({ tone, unitMs: lengths.dit, kind: 'paddles', mode: keyPreferences().mode, pauseMs: item.completionPauseMs }, {
      element(element) {
        pattern += element.mark;
        showKeyed();
      },
      pause(keyedSignals) {
        decoded.textContent = '';
        submit({ signals: keyedSignals });
      },
    });
    return keyer;
  }
  const keyerOn = () => active && mode === 'keyer' && !area.closest('.view')?.hidden;
  const stopListening = listenForKey(paddlePad, keyerOn, keyerSession);
  for (const button of [ditPaddle, dahPaddle]) {
    const contact = button.dataset.contact;
    button.addEventListener('pointerdown', (event) => {
      if (!keyerOn() || button.classList.contains('down')) return;
      event.preventDefault();
      button.classList.add('down');
      audio.unlock();
      keyerSession().down(contact, event.timeStamp);
      try {
        button.setPointerCapture(event.pointerId);
      } catch {
        /* the pointer is already gone */
      }
    });
    for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) {
      button.addEventListener(type, (event) => {
        if (!button.classList.contains('down')) return;
        button.classList.remove('down');
        keyerSession().up(contact, event.timeStamp);
      });
    }
    button.addEventListener('contextmenu', (event) => event.preventDefault());
  }

  function showKeyed() {
    const shown = patterns.map((p) => patternView(p));
    if (pattern) shown.push(patternView(pattern, { class: 'morse-pattern current' }));
    keyed.replaceChildren(...shown);
  }

  // Dit and dah keys: each element sounds after the one before it and one element gap.
  function element(mark) {
    if (!active || mode !== 'paddles') return;
    audio.unlock();
    const now = performance.now();
    const afterMs = Math.max(0, soundFreeAt - now);
    const endsInMs = audio.play([{ on: true, ms: mark === '.' ? lengths.dit : lengths.dah }], tone, afterMs);
    soundFreeAt = now + endsInMs + lengths.gap;
    pattern += mark;
    showKeyed();
    clearTimeout(completion);
    completion = setTimeout(completeCharacter, endsInMs + item.completionPauseMs);
  }

  function completeCharacter() {
    completion = null;
    if (!pattern) return;
    patterns.push(pattern);
    pattern = '';
    showKeyed();
    if (patterns.length >= item.characterCount) submit({ patterns });
  }

  // Straight key.
  function keyDown() {
    if (!active || mode !== 'straight' || downAt !== null) return;
    audio.unlock();
    const now = performance.now();
    if (upAt !== null) signals.push({ up: round(now - upAt) });
    downAt = now;
    clearTimeout(completion);
    audio.keyDown(tone);
    straightKey.classList.add('down');
  }

  function keyUp() {
    if (downAt === null) return;
    const now = performance.now();
    signals.push({ down: round(Math.min(fieldBounds('morse.signalMilliseconds').max, now - downAt)) });
    downAt = null;
    upAt = now;
    audio.keyUp();
    straightKey.classList.remove('down');
    readSoFar();
    clearTimeout(completion);
    completion = setTimeout(() => submit({ signals }), item.completionPauseMs);
  }

  async function readSoFar() {
    const ticket = ++decodeRound; // a later reading replaces this one
    try {
      const reading = await api('/morse/decode', { method: 'POST', body: { signals } });
      if (ticket === decodeRound) decoded.textContent = t('morse.ui.readSoFar', { text: reading.text || '–' });
    } catch (failure) {
      if (ticket === decodeRound) decoded.textContent = errorText(failure);
    }
  }

  async function submit(body) {
    if (!active) return;
    active = false;
    clearTimeout(completion);
    decodeRound += 1;
    area.dataset.state = 'checking';
    const taken = await answer(body);
    if (!taken) {
      // Refused (e.g. keyed too fast to read): the same item, keyed again from the start.
      patterns = [];
      reset();
      active = true;
      area.dataset.state = 'keying';
    }
  }

  // A straight key: Space, or either contact of an adapter (js/morse-keys.js).
  const straightInput = (event) => event.code === 'Space' || (!['.', '-', 'f', 'F', 'j', 'J'].includes(event.key) && contactOf(event) !== null);

  function onKeyDown(event) {
    if (!area.isConnected) { detach(); return; }
    if (!active || event.metaKey || event.altKey) return;
    if (mode === 'keyer') {
      // The paddles are listenForKey's; Backspace still clears.
      if (event.key === 'Backspace' && !area.closest('.view')?.hidden) { event.preventDefault(); reset(); }
      return;
    }
    if (event.ctrlKey && !(mode === 'straight' && straightInput(event))) return;
    if (event.target.closest && event.target.closest('input, select, textarea')) return;
    if (area.closest('.view')?.hidden) return;
    if (mode === 'straight' && straightInput(event)) {
      event.preventDefault();
      if (!event.repeat) keyDown();
    } else if (mode === 'paddles' && ['.', 'f', 'F'].includes(event.key)) {
      event.preventDefault();
      element('.');
    } else if (mode === 'paddles' && ['-', 'j', 'J'].includes(event.key)) {
      event.preventDefault();
      element('-');
    } else if (event.key === 'Backspace') {
      event.preventDefault();
      reset();
    }
  }

  function onKeyUp(event) {
    if (mode === 'straight' && straightInput(event)) {
      event.preventDefault();
      keyUp();
    }
  }

  function detach() {
    stopListening();
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('keyup', onKeyUp);
  }

  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('keyup', onKeyUp);
  dit.addEventListener('click', () => element('.'));
  dah.addEventListener('click', () => element('-'));
  clearButton.addEventListener('click', () => reset());
  paddlesMode.addEventListener('click', () => setMode('paddles'));
  straightMode.addEventListener('click', () => setMode('straight'));
  keyerMode.addEventListener('click', () => setMode('keyer'));
  straightKey.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    straightKey.setPointerCapture(event.pointerId);
    keyDown();
  });
  for (const type of ['pointerup', 'pointercancel', 'lostpointercapture']) straightKey.addEventListener(type, () => keyUp());
  straightKey.addEventListener('contextmenu', (event) => event.preventDefault());
  setMode(mode);

  return {
    /** Shows a new target; keying opens `afterMs` from now (after any replay). */
    present(next, afterMs) {
      item = next;
      patterns = [];
      reset();
      if (mode === 'keyer') freshKeyer();
      target.textContent = next.text;
      area.dataset.state = 'waiting';
      setTimeout(() => {
        if (item !== next) return;
        active = true;
        area.dataset.state = 'keying';
        soundFreeAt = performance.now();
      }, afterMs);
      announce(t('morse.ui.keyTarget', { text: next.text }));
    },
    halt() {
      active = false;
      item = null;
      keyer?.close();
      keyer = null;
      patterns = [];
      reset();
      area.dataset.state = 'halted';
    },
  };
}

const round = (ms) => Math.round(ms * 10) / 10;
