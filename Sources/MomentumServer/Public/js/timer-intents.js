// Focus timers away from the server (docs/offline.md). The list as the server last answered it is
// kept in this browser (`momentum.timers`, with when), so Timers shows it offline. What the person
// does to their own timers meanwhile — start, pause, reset, a checklist tick — is kept as an intent
// with the instant it was done (`momentum.timerIntents`) and sent with the outbox (js/outbox.js)
// once the server is reached: POST /timers/intents applies each at its instant and merges it by
// the sync rules, so the change made last wins, whatever arrives last. The page only shows the
// kept list moved on by its own taps; the server's answer replaces it.
import { api } from './api.js';

const LIST = 'momentum.timers';
const INTENTS = 'momentum.timerIntents';
const NODE = 'momentum.node';

function read(key, fallback) {
  try {
    const value = JSON.parse(localStorage.getItem(key));
    return value == null ? fallback : value;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // A full or refused storage keeps nothing more; what is on screen stays.
    console.warn(error);
  }
}

/** This browser's name as a replica (`w-` and 16 hex digits), made once and kept. */
function node() {
  let name = localStorage.getItem(NODE);
  if (!/^w-[0-9a-f]{16}$/.test(name || '')) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    name = `w-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
    localStorage.setItem(NODE, name);
  }
  return name;
}

/** Keeps `timers` (the server's answer) as the list shown offline, as of now. */
export function keepTimers(timers) {
  write(LIST, { timers, savedAt: Date.now() });
}

/** The kept list `{ timers, savedAt }`, or null. */
export function keptTimers() {
  const kept = read(LIST, null);
  return kept && Array.isArray(kept.timers) ? kept : null;
}

/** Keeps an intent (`{ timer, action, item?, done? }`), done now. */
export function queueIntent(intent) {
  const intents = read(INTENTS, []);
  intents.push({ ...intent, at: new Date().toISOString() });
  write(INTENTS, intents);
}

/** How many timer changes wait to be sent. */
export function waitingIntents() {
  return read(INTENTS, []).length;
}

let sending = null;
// Sent in pages of this many, well within what one sending may hold.
const PAGE = 100;
const REFUSED = 'momentum.timerIntentsRefused';

/** Why the server refused the waiting changes (the sentence it answered), or ''. */
export function refusedIntents() {
  return read(INTENTS, []).length ? read(REFUSED, '') : '';
}

/** Drops waiting changes the server refused, once the person has read why. */
export function dismissIntents() {
  write(INTENTS, []);
  write(REFUSED, '');
}

/**
 * Sends what waits, in the order it was done, and forgets each page once the server answered. A
 * page the server refuses (not one it could not be asked) stays, with the reason, until the
 * person removes it: nothing is dropped silently. Answers the server's last answer, or null when
 * nothing was sent; throws when the server was not reached.
 */
export function sendIntents() {
  if (sending) return sending;
  sending = (async () => {
    let answer = null;
    while (!refusedIntents()) {
      const intents = read(INTENTS, []).slice(0, PAGE);
      if (!intents.length) break;
      try {
        answer = await api('/timers/intents', { method: 'POST', body: { node: node(), intents } });
      } catch (error) {
        if (error.code === 'network' || error.status === 401 || error.status === 429 || error.status >= 500) throw error;
        write(REFUSED, error.message || String(error));
        break;
      }
      // Only what was sent is forgotten: a tap made while it was on its way stays.
      write(INTENTS, read(INTENTS, []).slice(intents.length));
      if (answer && Array.isArray(answer.timers)) keepTimers(answer.timers);
    }
    return answer;
  })().finally(() => { sending = null; });
  return sending;
}
