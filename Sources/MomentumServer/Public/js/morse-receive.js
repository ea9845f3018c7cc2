// Receive: the item sounds (its elements as the server sent them, on the audio clock — or, on a
// band, the server's own sound of them with noise and fading), then there
// are 3 s to type what was heard, counted down on screen from the end of the sound. Enter sends;
// when the time runs out, what was typed is sent — or nothing, which is a miss.
// Keys typed after an answer is sent and before the next item starts to sound (while the answer
// is checked, a miss is replayed and the calm after it passes) are kept in order and applied to
// that next item when it starts — characters, Backspace and Enter alike — as if typed while it
// plays, which the core counts with a response time of zero (docs/morse.md). The replay and the
// calm are never cut short.
import { t, number, boundAttributes } from './i18n.js';
import { el } from './dom.js';
import * as audio from './morse-audio.js';

/** `answer(body)` sends to the server and resolves true when it was taken. */
export function receiveDrill(area, { tone, answer }) {
  let timers = [];
  let countdown = null;
  let answerMs = 0; // the item's answer window, as the server says (SPEC §7: 3 s)
  let soundEnded = null; // performance.now() at the end of the item's sound
  let waiting = false; // an item is out and not answered yet
  let queue = null; // keys held until the next item sounds (an array), or null while typing goes through
  let presentations = 0; // counts items presented, so a band sound that comes late starts no old countdown

  const status = el('p', { class: 'morse-status', id: 'mo-status' });
  const input = el('input', {
    type: 'text', id: 'mo-answer', name: 'answer', autocomplete: 'off', autocapitalize: 'characters',
    autocorrect: 'off', spellcheck: 'false', ...boundAttributes('morse.answer'), enterkeyhint: 'send',
  });
  const check = el('button', { type: 'submit', class: 'primary', id: 'mo-check' }, t('morse.ui.check'));
  const fill = el('span');
  const seconds = el('span', { class: 'morse-seconds', id: 'mo-countdown' });
  const form = el('form', { class: 'morse-answer', id: 'mo-answer-form', novalidate: '' },
    el('label', { for: 'mo-answer' }, t('morse.ui.whatDidYouHear')),
    el('div', { class: 'inline' }, input, check),
    el('div', { class: 'morse-countdown-row' }, el('div', { class: 'meter morse-countdown', 'aria-hidden': 'true' }, fill), seconds));
  area.append(status, form);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (queue) return; // an Enter held in the queue submits when its item sounds
    if (input.value.trim()) send();
  });

  input.addEventListener('keydown', (event) => {
    if (!queue || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'Enter' || event.key === 'Backspace' || event.key.length === 1) {
      event.preventDefault();
      queue.push(event.key);
    }
  });

  /** Types the held keys into the answer, in order; an Enter among them submits. */
  function applyQueue() {
    const keys = queue ?? [];
    queue = null;
    for (const [index, key] of keys.entries()) {
      if (key === 'Backspace') input.value = input.value.slice(0, -1);
      else if (key !== 'Enter') input.value += key;
      else if (input.value.trim()) {
        send(); // holds keys from here on (synchronously), so the rest go first
        queue = [...keys.slice(index + 1), ...(queue ?? [])];
        return;
      }
    }
  }

  function show(leftMs) {
    fill.style.setProperty('--value', String(Math.max(0, leftMs) / answerMs));
    seconds.textContent = t('morse.ui.secondsLeft', { seconds: number(Math.max(0, Math.ceil(leftMs / 1000))) });
  }

  function clear() {
    timers.forEach(clearTimeout);
    timers = [];
    clearInterval(countdown);
    countdown = null;
  }

  function startCountdown() {
    soundEnded = performance.now();
    area.dataset.state = 'answering';
    status.textContent = t('morse.ui.typeNow');
    const step = () => {
      const left = answerMs - (performance.now() - soundEnded);
      show(left);
      if (left <= 0) send();
    };
    countdown = setInterval(step, 100);
    step();
  }

  async function send() {
    if (!waiting) return;
    waiting = false;
    clear();
    const text = input.value.trim();
    const body = text ? { answer: text, responseMs: soundEnded ? Math.max(0, performance.now() - soundEnded) : 0 } : {};
    area.dataset.state = 'checking';
    input.readOnly = true;
    queue = queue ?? [];
    if (!(await answer(body))) {
      // Refused or not reached: the item is still out; Enter tries again.
      waiting = true;
      input.readOnly = false;
      area.dataset.state = 'answering';
      applyQueue();
    }
  }

  return {
    /**
     * Plays a new item `afterMs` from now (after a replay and the calm); its countdown starts when
     * its sound ends. Keys typed until it sounds are held and applied then.
     */
    present(item, afterMs) {
      answerMs = item.answerWindowMs;
      clear();
      waiting = true;
      soundEnded = null;
      input.value = '';
      input.readOnly = false;
      input.focus();
      status.textContent = t('morse.ui.listen');
      show(answerMs);
      // On a band the item is the server's sound; its countdown starts when that sound ends.
      const presented = ++presentations;
      const ends = item.audio ? audio.playSound(item.audio, item.elements, tone, afterMs) : audio.play(item.elements, tone, afterMs);
      Promise.resolve(ends).then((endsInMs) => {
        if (presented === presentations && waiting) timers.push(setTimeout(startCountdown, endsInMs));
      });
      const sounding = () => {
        area.dataset.state = 'listening';
        applyQueue();
      };
      if (afterMs > 0) {
        queue = queue ?? [];
        area.dataset.state = 'between';
        timers.push(setTimeout(sounding, afterMs));
      } else {
        sounding();
      }
    },
    /** Stops the countdown (pause, end); the item stays unanswered. */
    halt() {
      presentations += 1;
      clear();
      waiting = false;
      queue = null;
      input.readOnly = true;
      area.dataset.state = 'halted';
      status.textContent = '';
    },
  };
}
