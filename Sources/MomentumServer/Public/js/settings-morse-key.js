// Settings → Morse key (issue 44): the key or paddles plugged into this device, the keyer's mode,
// swapped paddles, and a pad to try them with the live sidetone. The choice belongs to the device
// (js/morse-keys.js keeps it in the browser); the speed and tone are the course's (GET /morse/keyer),
// and what was keyed is read by the server's decoder (POST /morse/decode).
import { api } from './api.js';
import { t, number, errorText } from './i18n.js';
import { el, field, announce } from './dom.js';
import { patternView } from './morse-text.js';
import { keyingView } from './morse-keying.js';
import { KINDS, MODES, keyPreferences, setKeyPreferences, focusedKeyPad, testing } from './morse-keys.js';

const PAUSE_MS = 1200; // rest after which the tried keying is read

export function morseKeyCard() {
  const preferences = keyPreferences();
  const select = (id, values, chosen, prefix) => el('select', { id, name: id },
    ...values.map((value) => el('option', { value, ...(value === chosen ? { selected: '' } : {}) }, t(`${prefix}.${value}`))));
  const kind = select('k-kind', KINDS, preferences.kind, 'morse.keys.kind');
  const mode = select('k-mode', MODES, preferences.mode, 'morse.keys.mode');
  const swap = el('input', { type: 'checkbox', id: 'k-swap', name: 'k-swap', ...(preferences.swap ? { checked: '' } : {}) });
  const modeField = field('k-mode', t('morse.keys.modeLabel'), mode);
  const swapField = el('label', { class: 'check', for: 'k-swap' }, swap, el('span', {}, t('morse.keys.swap')));
  // role=application: the pad takes raw keys (the adapter's), as a key does.
  const pad = el('div', { class: 'morse-key-pad', id: 'k-pad', tabindex: '0', role: 'application', 'aria-label': t('morse.keys.pad'), 'aria-describedby': 'k-pad-hint' }, t('morse.keys.pad'));
  const keyed = el('p', { class: 'morse-keyed', id: 'k-keyed' });
  const read = el('p', { id: 'k-read' });
  const latency = el('p', { class: 'muted', id: 'k-latency' });
  const report = el('div');
  const card = el('section', { class: 'card form', id: 'k-key', 'aria-labelledby': 'k-title' },
    el('h2', { id: 'k-title' }, t('morse.keys.title')),
    el('p', { class: 'muted' }, t('morse.keys.intro')),
    el('div', { class: 'form-grid' }, field('k-kind', t('morse.keys.kindLabel'), kind), modeField),
    swapField,
    pad,
    el('p', { class: 'muted', id: 'k-pad-hint' }, t('morse.keys.padHint')),
    keyed, el('div', { 'aria-live': 'polite' }, read, report), latency);

  let keyer = null; // GET /morse/keyer
  let shownLatencies = 0;
  let pattern = '';
  let round = 0;

  function showChoices() {
    const chosen = keyPreferences();
    modeField.hidden = chosen.kind !== 'paddles';
    swapField.hidden = chosen.kind !== 'paddles';
  }

  const keyPad = focusedKeyPad(pad, PAUSE_MS, {
    ready(found) { keyer = found; },
    failed(failure) { read.textContent = errorText(failure); },
    element(element) {
      pattern += element.mark;
      keyed.replaceChildren(patternView(pattern));
      showLatency();
    },
    released() {
      showLatency();
    },
    async pause(signals) {
      if (!card.isConnected) { keyPad.forget(); return; } // Settings was drawn again meanwhile
      const ticket = ++round;
      pattern = '';
      keyPad.session()?.reset();
      try {
        const reading = await api('/morse/decode', { method: 'POST', body: { signals, wpm: keyer.characterWPM } });
        if (ticket === round) {
          read.textContent = t('morse.ui.readSoFar', { text: reading.text || '–' });
          report.replaceChildren(keyingView(reading.report, 'k-report'));
        }
      } catch (failure) {
        if (ticket === round) read.textContent = errorText(failure);
      }
    },
  });

  function showLatency() {
    // The worklet's report arrives a moment after the tone starts.
    setTimeout(() => {
      if (testing.latencies.length === shownLatencies) return;
      shownLatencies = testing.latencies.length;
      const ms = testing.latencies[shownLatencies - 1];
      latency.textContent = t('morse.keys.latency', { ms: number(ms, { maximumFractionDigits: 1 }) });
    }, 100);
  }

  function changed(change) {
    setKeyPreferences(change);
    keyPad.forget();
    pattern = '';
    keyed.replaceChildren();
    showChoices();
    announce(t('morse.keys.saved'));
  }
  kind.addEventListener('change', () => changed({ kind: kind.value }));
  mode.addEventListener('change', () => changed({ mode: mode.value }));
  swap.addEventListener('change', () => changed({ swap: swap.checked }));

  showChoices();
  return card;
}
