// A QSO in progress (POST /morse/qso, then /morse/qso/{id}/send): the station's latest
// transmission plays as the server keyed it; its text stays hidden while the person copies by
// ear, and shows when they ask ("Show text", or Enter on an empty field) or once they have
// answered — as in the terminal. The server reads each transmission leniently and answers, or
// asks for a repeat and names what was missing. At the end: the whole contact, calmly.
import { api } from './api.js';
import { t, listText, errorText, boundAttributes } from './i18n.js';
import { el, svg, announce } from './dom.js';
import * as audio from './morse-audio.js';
import { focusedKeyPad } from './morse-keys.js';

/** The rest after which what was keyed on the pad is read into the field: a word space and more. */
const KEY_REST_MS = 1500;

/**
 * Draws the contact into `root` (after its heading) and runs it. `on.again()` starts another
 * contact, `on.back()` returns to the overview. Returns `{ leave }` (silences the station).
 */
export function contactScreen(root, initial, on) {
  let contact = initial;
  let revealed = false; // the latest station transmission's text is shown
  let heardTurns = -1; // transcript length when the latest transmission was played
  let soundTimer = null;
  let busy = false;

  const title = el('h2', { id: 'mo-qso-title', tabindex: '-1' },
    t('morse.ui.qso.contactTitle', { style: t(`morse.ui.qso.style.${initial.style}`) }));
  const as = el('p', { class: 'muted', id: 'mo-qso-as' },
    t(`morse.ui.qso.as.${initial.mode}`, { call: initial.ownCallSign }));

  // The station: what it is doing, its text once revealed, Show text and Replay.
  const status = el('p', { class: 'morse-status', id: 'mo-qso-status', 'aria-live': 'polite' });
  const stationText = el('p', { class: 'morse-qso-text', id: 'mo-qso-station-text', 'aria-live': 'polite' });
  const reveal = el('button', { type: 'button', class: 'secondary', id: 'mo-qso-show' }, t('morse.ui.qso.show'));
  const replay = el('button', { type: 'button', class: 'secondary', id: 'mo-qso-replay' }, t('morse.ui.qso.replay'));
  const station = el('div', { class: 'morse-qso-station', id: 'mo-qso-station', role: 'group', 'aria-labelledby': 'mo-qso-station-title' },
    el('h3', { id: 'mo-qso-station-title' }, t('morse.ui.qso.stationHeading')),
    status, stationText, el('div', { class: 'actions' }, reveal, replay));

  // The repeat request's hint, and characters the server could not key.
  const repeat = el('p', { class: 'morse-qso-repeat', id: 'mo-qso-repeat', role: 'status' });
  const ignored = el('p', { class: 'muted', id: 'mo-qso-ignored', hidden: '' });

  // What the person sends.
  const input = el('input', {
    type: 'text', id: 'mo-qso-text', name: 'text', autocomplete: 'off', autocapitalize: 'characters',
    autocorrect: 'off', spellcheck: 'false', ...boundAttributes('qso.transmission'), enterkeyhint: 'send', 'aria-describedby': 'mo-qso-send-help',
  });
  const sendButton = el('button', { type: 'submit', class: 'primary', id: 'mo-qso-send' }, t('morse.ui.qso.send'));
  const form = el('form', { class: 'morse-answer morse-qso-send', id: 'mo-qso-send-form', novalidate: '' },
    el('label', { for: 'mo-qso-text' }, t('morse.ui.qso.sendLabel')),
    el('div', { class: 'inline' }, input, sendButton),
    el('p', { class: 'muted', id: 'mo-qso-send-help' }, t('morse.ui.qso.sendHelp')));
  // Or key it: the device's paddles or straight key on a pad (Settings → Morse key); each rest
  // reads what was keyed (POST /morse/decode) onto the end of the field, to send as typed.
  const pad = el('div', {
    class: 'morse-key-pad', id: 'mo-qso-pad', tabindex: '0', role: 'application', 'aria-label': t('morse.ui.qso.keyPad'),
    'aria-describedby': 'mo-qso-key-hint',
  }, t('morse.ui.qso.keyPad'));
  const keyRead = el('p', { class: 'muted', id: 'mo-qso-key-read', 'aria-live': 'polite' });
  const keying = el('details', { class: 'morse-qso-key', id: 'mo-qso-key' },
    el('summary', {}, t('morse.ui.qso.keyIt')), pad,
    el('p', { class: 'muted', id: 'mo-qso-key-hint' }, t('morse.ui.qso.keyHint')), keyRead);
  let keyRound = 0;
  const keyPad = focusedKeyPad(pad, KEY_REST_MS, {
    failed(failure) { keyRead.textContent = errorText(failure); },
    async pause(signals) {
      if (!card.isConnected) { keyPad.forget(); return; }
      const ticket = ++keyRound;
      keyPad.session()?.reset();
      try {
        const reading = await api('/morse/decode', { method: 'POST', body: { signals } });
        if (ticket !== keyRound || !reading.text) return;
        input.value = `${input.value.trim()} ${reading.text}`.trim();
        keyRead.textContent = t('morse.ui.readSoFar', { text: reading.text });
      } catch (failure) {
        if (ticket === keyRound) keyRead.textContent = errorText(failure);
      }
    },
  });
  const nextList = el('p', { id: 'mo-qso-next-list' });
  const next = el('details', { class: 'morse-qso-next', id: 'mo-qso-next' },
    el('summary', {}, t('morse.ui.qso.next')), nextList);
  const error = el('p', { class: 'error', id: 'mo-qso-error', role: 'alert', hidden: '' });

  const transcript = el('ol', { class: 'morse-qso-transcript', id: 'mo-qso-transcript', 'aria-labelledby': 'mo-qso-transcript-title' });
  const nothingYet = el('p', { class: 'muted', id: 'mo-qso-transcript-none' }, t('morse.ui.qso.nothingYet'));
  const log = el('section', { class: 'morse-qso-log', 'aria-labelledby': 'mo-qso-transcript-title' },
    el('h3', { id: 'mo-qso-transcript-title' }, t('morse.ui.qso.transcript')), nothingYet, transcript);

  const end = el('button', { type: 'button', class: 'secondary', id: 'mo-qso-end' }, t('morse.ui.qso.end'));
  const card = el('section', {
    class: 'card morse-qso', id: 'mo-qso', 'aria-labelledby': 'mo-qso-title', 'data-contact-id': initial.id,
  }, title, as, station, repeat, ignored, form, keying, next, error, log, el('div', { class: 'actions' }, end));
  root.append(card);

  reveal.addEventListener('click', () => { showText(); input.focus(); });
  replay.addEventListener('click', () => { audio.unlock(); play(); });
  end.addEventListener('click', () => { leave(); on.back(); });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    audio.unlock();
    const text = input.value.trim();
    if (!text) showText(); // Enter on an empty field: show what the station sent
    else send(text);
  });

  // On a band the station's sound is the server's (noise, fading, the other station): an element.
  let bandSound = null;
  function silence() {
    audio.silence();
    if (bandSound) { bandSound.pause(); bandSound.removeAttribute('src'); bandSound.load(); bandSound = null; }
  }

  function leave() {
    clearTimeout(soundTimer);
    silence();
    keyPad.forget();
  }

  /** Plays the station's latest transmission; the status says when it has ended. */
  function play() {
    if (!contact.station) return;
    clearTimeout(soundTimer);
    silence();
    status.textContent = t('morse.ui.qso.sending');
    let endsInMs;
    if (contact.station.audio) {
      bandSound = new Audio(contact.station.audio);
      bandSound.play().catch(() => { /* a refused sound leaves the text to be shown */ });
      // The sound is the same elements, keyed by the same hand, so it ends when they do.
      endsInMs = contact.station.elements.reduce((sum, element) => sum + element.ms, 0);
    } else {
      endsInMs = audio.play(contact.station.elements, contact.tone);
    }
    soundTimer = setTimeout(() => {
      if (card.isConnected && !contact.isDone) status.textContent = t('morse.ui.qso.copy');
    }, endsInMs);
  }

  function showText() {
    if (!contact.station || revealed) return;
    revealed = true;
    drawStation();
    drawTranscript();
  }

  async function send(text) {
    if (busy) return;
    busy = true;
    error.hidden = true;
    input.readOnly = true;
    try {
      const answer = await api(`/morse/qso/${contact.id}/send`, { method: 'POST', body: { text } });
      input.value = '';
      update(answer);
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
    } finally {
      busy = false;
      input.readOnly = false;
    }
  }

  function drawStation() {
    const said = contact.station;
    reveal.hidden = !said || revealed;
    replay.hidden = !said;
    stationText.textContent = said && revealed ? said.text : '';
    if (!said) status.textContent = t('morse.qso.yourTurn');
    card.dataset.revealed = String(revealed);
  }

  /** Every line, but the station's latest transmission only once it is revealed. */
  function drawTranscript() {
    const lines = contact.transcript;
    const latest = lines.length - 1;
    transcript.replaceChildren(...lines.map((line, index) => {
      const hidden = line.sender === 'station' && index === latest && !revealed;
      return el('li', { class: `${line.sender}${hidden ? ' hidden-text' : ''}` },
        el('span', { class: 'sender' }, t(`morse.ui.qso.sender.${line.sender}`)),
        el('span', { class: 'text' }, hidden ? t('morse.ui.qso.hidden') : line.text));
    }));
    nothingYet.hidden = lines.length > 0;
    transcript.hidden = lines.length === 0;
  }

  function update(next) {
    contact = next;
    card.dataset.phase = next.phase;
    card.dataset.turns = String(next.transcript.length);
    const reply = next.lastReply;
    repeat.textContent = reply && !reply.advanced && reply.hint ? t('morse.ui.qso.repeat', { hint: reply.hint }) : '';
    repeat.hidden = !repeat.textContent;
    const dropped = reply ? reply.ignoredCharacters : [];
    ignored.textContent = dropped.length ? t('qso.ignored', { characters: dropped.join(' ') }) : '';
    ignored.hidden = !dropped.length;
    nextList.textContent = next.expected.length
      ? t('morse.ui.qso.nextList', { elements: listText(next.expected.map((part) => part.name)) }) : '';

    const fresh = next.station && next.transcript.length !== heardTurns;
    if (fresh) {
      heardTurns = next.transcript.length;
      revealed = false;
    }
    if (next.isDone) return finish(fresh);
    drawStation();
    drawTranscript();
    if (fresh) play();
  }

  /** The contact is over: its last transmission plays, and the whole contact shows. */
  function finish(fresh) {
    revealed = true;
    drawTranscript();
    const done = el('div', { class: 'morse-qso-done', id: 'mo-qso-done', role: 'group', 'aria-labelledby': 'mo-qso-done-title' },
      svg('svg', { class: 'morse-levelup-mark', viewBox: '0 0 48 48', 'aria-hidden': 'true' },
        svg('circle', { cx: 24, cy: 24, r: 20 }),
        svg('path', { d: 'M15 25l6 6 12-13' })),
      el('h3', { id: 'mo-qso-done-title', tabindex: '-1' }, t('morse.qso.done')),
      el('p', { class: 'muted' }, t('morse.ui.qso.doneHelp')));
    const again = el('button', { type: 'button', class: 'primary', id: 'mo-qso-new' }, t('morse.ui.qso.new'));
    const back = el('button', { type: 'button', class: 'secondary', id: 'mo-qso-back' }, t('morse.ui.backToOverview'));
    again.addEventListener('click', () => {
      audio.unlock();
      again.disabled = true;
      leave();
      on.again().catch((failure) => {
        again.disabled = false;
        error.textContent = errorText(failure);
        error.hidden = false;
      });
    });
    back.addEventListener('click', () => { leave(); on.back(); });
    card.classList.add('done');
    card.replaceChildren(title, as, done, log, error, el('div', { class: 'actions' }, again, back));
    if (fresh && contact.station) audio.play(contact.station.elements, contact.tone);
    done.querySelector('h3').focus();
    announce(t('morse.qso.done'));
  }

  update(initial);
  if (!initial.isDone) input.focus();
  return { leave };
}
