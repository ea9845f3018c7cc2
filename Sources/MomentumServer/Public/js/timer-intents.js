// Focus timers away from the server (docs/offline.md). The list as the server last answered it is
// kept in this browser (`momentum.timers`, with when), so Timers shows it offline. What the person
// does to their own timers meanwhile — start, pause, reset, a checklist tick — is kept as an intent
// with the instant it was done (`momentum.timerIntents`) and sent with the outbox (js/outbox.js)
// once the server is reached: POST /timers/intents applies each at its instant and merges it by
// the sync rules, so the change made last wins, whatever arrives last. The page only shows the
// kept list moved on by its own taps; the server's answer replaces it.
import { api, newID } from './api.js';

const LIST = 'momentum.timers';
const INTENTS = 'momentum.timerIntents';
const REFUSED = 'momentum.timerIntentsRefused';
const NODE = 'momentum.node';
// Sent in pages of this many, well within what one sending may hold.
const PAGE = 100;
/** The event a page hears when its kept intents reached the server. */
export const SENT_EVENT = 'momentum-timer-intents-sent';

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

let madeNode = null;
/** This browser's name as a replica (`w-` and 16 hex digits), made once and kept. */
function node() {
  let name = null;
  try {
    name = localStorage.getItem(NODE);
  } catch { /* storage refused: the name lives as long as the page */ }
  if (/^w-[0-9a-f]{16}$/.test(name || '')) return name;
  if (!madeNode) {
    const bytes = crypto.getRandomValues(new Uint8Array(8));
    madeNode = `w-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  }
  try {
    localStorage.setItem(NODE, madeNode);
  } catch { /* kept in this page only */ }
  return madeNode;
}

/**
 * Keeps `timers` as the list shown offline: `countedAt` is when their remaining times were counted
 * (now), `serverAt` when the server last answered them (what the page says it shows).
 */
export function keepTimers(timers, serverAt = Date.now()) {
  write(LIST, { timers, countedAt: Date.now(), serverAt });
}

/** The kept list `{ timers, countedAt, serverAt }`, or null. */
export function keptTimers() {
  const kept = read(LIST, null);
  if (!kept || !Array.isArray(kept.timers)) return null;
  const countedAt = kept.countedAt ?? kept.savedAt;
  return { timers: kept.timers, countedAt, serverAt: kept.serverAt ?? countedAt };
}

/** Keeps an intent (`{ timer, action, item?, done? }`), done now. */
export function queueIntent(intent) {
  write(INTENTS, [...read(INTENTS, []), { ...intent, id: newID(), at: new Date().toISOString() }]);
}

/** How many timer changes wait to be sent. */
export function waitingIntents() {
  return read(INTENTS, []).length;
}

/** Why the server refused some waiting changes (the sentence it answered), or ''. */
export function refusedIntents() {
  const refused = read(REFUSED, null);
  return refused && refused.intents && refused.intents.length ? refused.reason : '';
}

/** Drops the changes the server refused, once the person has read why. */
export function dismissIntents() {
  write(REFUSED, null);
}

let sending = null;

/**
 * Sends what waits, in the order it was done, a page at a time; each page is forgotten once the
 * server answered it (by the ids sent, so a tap made meanwhile, or a page another tab sent too,
 * is neither lost nor sent twice: the server applies an intent sent again once). A page the
 * server refuses (not one it could not be asked) is set aside with the reason until the person
 * removes it: nothing is dropped silently. Answers how many were sent; throws when the server
 * was not reached.
 */
export function sendIntents() {
  if (sending) return sending;
  sending = (async () => {
    let sent = 0;
    for (;;) {
      const intents = read(INTENTS, []).slice(0, PAGE);
      if (!intents.length) break;
      const ids = new Set(intents.map((intent) => intent.id));
      const body = { node: node(), intents: intents.map(({ id, ...intent }) => intent) };
      try {
        await api('/timers/intents', { method: 'POST', body });
      } catch (error) {
        if (error.code === 'network' || error.status === 401 || error.status === 429 || error.status >= 500) throw error;
        const refused = read(REFUSED, null);
        write(REFUSED, { reason: error.message || String(error), intents: [...(refused?.intents || []), ...intents] });
      }
      write(INTENTS, read(INTENTS, []).filter((intent) => !ids.has(intent.id)));
      sent += intents.length;
    }
    if (sent) window.dispatchEvent(new CustomEvent(SENT_EVENT));
    return sent;
  })().finally(() => { sending = null; });
  return sending;
}
