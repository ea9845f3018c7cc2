// The live feed (docs/sync.md, "Browser"): a WebSocket to /api/v1/live that tells the sections
// what changed on the server — pushes from other devices and writes made through the API, this
// page's own included. The browser is a view of the server, not a replica: a section re-reads
// what it shows from the REST routes; the changes only say which sections must do so.
//
// - The server first sends {"head": N}, then {"seq": N, "change": {type, id, op, field, value,
//   stamp, device}} in the order of its log. Changes arriving within 50 ms are handed over
//   together, once per section. {"nudge": ["focusTimer", …]} says a timer someone shared with
//   this person changed (in their log, so without a sequence number): those sections re-read.
// - A gap in the sequence numbers, or a head that differs from the last number seen when a
//   dropped connection comes back, means changes were missed: every section refreshes.
// - A dropped connection is tried again after 0.5 s, 1 s, 2 s … at most 30 s (a little jitter),
//   and at once when the browser comes back online or the tab becomes visible.
// - The status line (role=status) shows only when something is wrong: the connection has been
//   down for more than 3 s, or the browser says it is offline.
import { t } from './i18n.js';

const COALESCE_MS = 50;
const FIRST_RETRY_MS = 500;
const MAX_RETRY_MS = 30000;
const SHOW_OFFLINE_AFTER_MS = 3000;

const listeners = [];
/** Handlers of a sit together's steps ({"together": {code, status, positionMs, serverAtMs}}). */
const togetherListeners = [];
/** Clock questions on their way: the reading each was sent with, and what to call with the answer. */
const clockQuestions = new Map();
const CLOCK_ANSWER_WAIT_MS = 3000;
let socket = null;
let lastSeq = null; // the last sequence number seen (null before the first head)
let retryMs = FIRST_RETRY_MS;
let retryTimer = null;
let offlineTimer = null;
let pending = [];
let pendingRefresh = false;
let flushTimer = null;
let started = false;
let state = 'connecting'; // connecting | open | closed

/**
 * Calls `handler({ changes, refresh })` when changes of one of `types` (e.g. ['focusTimer',
 * 'checklistItem']) arrive — `changes` holds those of the last 50 ms, in log order — with
 * `refresh: true` when changes may have been missed (`changes` then holds those that arrived).
 */
export function onLive(types, handler) {
  listeners.push({ types: new Set(types), handler });
}

/** Calls `handler(step)` with each step of a sit together this person is invited to. */
export function onTogether(handler) {
  togetherListeners.push(handler);
}

/**
 * One round trip to the server's clock over the feed (docs/together.md): resolves with
 * `{ sentAt, serverAt, receivedAt }`, the two page readings by `now()` (milliseconds), or rejects
 * when the feed is not open or no answer comes within 3 s.
 */
export function askClock(now) {
  return new Promise((resolve, reject) => {
    if (!socket || state !== 'open') {
      reject(new Error('the live feed is not open'));
      return;
    }
    const sentAt = now();
    const timer = setTimeout(() => {
      clockQuestions.delete(sentAt);
      reject(new Error('no clock answer'));
    }, CLOCK_ANSWER_WAIT_MS);
    clockQuestions.set(sentAt, (serverAt) => {
      clearTimeout(timer);
      resolve({ sentAt, serverAt, receivedAt: now() });
    });
    socket.send(JSON.stringify({ clock: sentAt }));
  });
}

/** Opens the feed (once); the page's sections subscribe with `onLive`. */
export function startLive() {
  if (started || typeof WebSocket !== 'function') return;
  started = true;
  window.addEventListener('online', () => { if (state === 'open') showOffline(false); retryNow(); });
  window.addEventListener('offline', () => showOffline(true));
  document.addEventListener('visibilitychange', () => { if (!document.hidden) retryNow(); });
  connect();
}

function setState(next) {
  state = next;
  document.documentElement.dataset.live = next;
}

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  let ws;
  try {
    ws = new WebSocket(`${scheme}//${location.host}/api/v1/live`);
  } catch {
    scheduleRetry();
    return;
  }
  socket = ws;
  setState('connecting');
  ws.addEventListener('message', (event) => { if (ws === socket) receive(event.data); });
  ws.addEventListener('close', () => {
    if (ws !== socket) return;
    socket = null;
    setState('closed');
    scheduleRetry();
  });
  // An error is always followed by close; nothing else to do here.
  ws.addEventListener('error', () => {});
}

function scheduleRetry() {
  if (retryTimer) return;
  if (!offlineTimer) offlineTimer = setTimeout(() => showOffline(true), SHOW_OFFLINE_AFTER_MS);
  const wait = Math.round(retryMs * (0.8 + Math.random() * 0.4));
  retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
  retryTimer = setTimeout(connect, wait);
}

function retryNow() {
  if (socket || !started) return;
  retryMs = FIRST_RETRY_MS;
  connect();
}

function receive(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof message.head === 'number') {
    const missed = lastSeq !== null && message.head !== lastSeq;
    lastSeq = message.head;
    retryMs = FIRST_RETRY_MS;
    clearTimeout(offlineTimer);
    offlineTimer = null;
    showOffline(false);
    setState('open');
    if (missed) queue(null);
    return;
  }
  // The answer to a clock question, at once (not queued with the changes).
  if (typeof message.clock === 'number' && typeof message.serverAt === 'number') {
    const answer = clockQuestions.get(message.clock);
    clockQuestions.delete(message.clock);
    if (answer) answer(message.serverAt);
    return;
  }
  // A step of a sit together: handed over at once, so a pause reaches the sound in time.
  if (message.together && typeof message.together.code === 'string') {
    for (const handler of togetherListeners) {
      try {
        const result = handler(message.together);
        if (result && typeof result.catch === 'function') result.catch(console.error);
      } catch (error) {
        console.error(error);
      }
    }
    return;
  }
  // A timer someone shared with this person changed in their log, not in this person's: the
  // sections of those types re-read, and the sequence numbers stay as they are.
  if (Array.isArray(message.nudge)) {
    for (const type of message.nudge) if (typeof type === 'string') queue({ type, nudge: true });
    return;
  }
  if (typeof message.seq !== 'number' || !message.change) return;
  if (lastSeq !== null && message.seq <= lastSeq) return; // seen already
  const gap = lastSeq === null || message.seq !== lastSeq + 1;
  lastSeq = message.seq;
  queue(gap ? null : message.change);
}

/** Collects a change (or, for `null`, "refresh everything") and hands them over 50 ms later. */
function queue(change) {
  if (change) pending.push(change);
  else pendingRefresh = true;
  if (!flushTimer) flushTimer = setTimeout(flush, COALESCE_MS);
}

function flush() {
  flushTimer = null;
  const changes = pending;
  const refresh = pendingRefresh;
  pending = [];
  pendingRefresh = false;
  for (const { types, handler } of listeners) {
    const mine = changes.filter((change) => types.has(change.type));
    if (!refresh && !mine.length) continue;
    try {
      // A refresh still hands over the changes that did arrive with it (a language chosen).
      const result = handler({ changes: mine, refresh });
      if (result && typeof result.catch === 'function') result.catch(console.error);
    } catch (error) {
      console.error(error);
    }
  }
}

/** The status region is always there (so screen readers announce what appears in it); the
 * message is put in and taken out. */
function showOffline(on) {
  const region = document.getElementById('live-status');
  if (!region) return;
  const offline = on && (state !== 'open' || navigator.onLine === false);
  const shown = region.querySelector('#live-offline');
  if (offline && !shown) region.append(Object.assign(document.createElement('p'), { id: 'live-offline', className: 'live-offline', textContent: t('sync.offline') }));
  else if (!offline && shown) shown.remove();
}

/** Re-writes the message in the current language (after a language change). */
export function relocalizeLive() {
  const shown = document.getElementById('live-offline');
  if (shown) shown.textContent = t('sync.offline');
}

// ---------------------------------------------------------------------------------------------
// Helpers for the sections: refresh without disturbing the person.

const TEXT_TYPES = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password', 'time', 'date',
  'datetime-local', 'month', 'week']);

/** Whether `node` takes typed text (a text field, a number field, a text area, a select). */
export function isTextEntry(node) {
  if (!node) return false;
  if (node.tagName === 'TEXTAREA' || node.tagName === 'SELECT' || node.isContentEditable) return true;
  return node.tagName === 'INPUT' && TEXT_TYPES.has(node.type);
}

/**
 * Runs `refresh()` now, or — while the person types in a field under `root` — once focus has
 * left `root`'s fields. Several calls while waiting run `refresh` once.
 */
export function whenNotTyping(root, refresh) {
  if (root.momentumWaiting) return;
  const typing = () => isTextEntry(document.activeElement) && root.contains(document.activeElement);
  if (!typing()) {
    refresh();
    return;
  }
  root.momentumWaiting = true;
  const onLeave = () => {
    // Focus moves after focusout; look where it went once it has.
    setTimeout(() => {
      if (typing()) return;
      root.removeEventListener('focusout', onLeave);
      root.momentumWaiting = false;
      refresh();
    }, 0);
  };
  root.addEventListener('focusout', onLeave);
}

/**
 * Runs `render()` (which replaces what is under `root`) and puts back what the person had
 * entered in a form but not yet sent — every form field whose value differs from its initial
 * one, found again by id — and the focus (with the text selection). Controls outside a form
 * (a checklist's boxes) save at once: they show the server's value.
 */
export async function keepingInput(root, render) {
  const edits = [];
  for (const node of root.querySelectorAll('form input[id], form textarea[id], form select[id]')) {
    if (node.type === 'checkbox' || node.type === 'radio') {
      if (node.checked !== node.defaultChecked) edits.push({ id: node.id, checked: node.checked });
    } else if (node.tagName === 'SELECT') {
      const changed = [...node.options].some((option) => option.selected !== option.defaultSelected);
      if (changed) edits.push({ id: node.id, value: node.value });
    } else if (node.value !== node.defaultValue) {
      edits.push({ id: node.id, value: node.value });
    }
  }
  const active = document.activeElement;
  const focusId = active && active.id && root.contains(active) ? active.id : null;
  let selection = null;
  try {
    if (focusId && typeof active.selectionStart === 'number') selection = [active.selectionStart, active.selectionEnd];
  } catch { /* number fields have no selection */ }
  await render();
  for (const edit of edits) {
    const node = root.querySelector(`#${CSS.escape(edit.id)}`);
    if (!node) continue;
    if ('checked' in edit) node.checked = edit.checked;
    else node.value = edit.value;
  }
  if (focusId && (!document.activeElement || document.activeElement === document.body || !root.contains(document.activeElement))) {
    const node = root.querySelector(`#${CSS.escape(focusId)}`);
    if (node) {
      node.focus({ preventScroll: true });
      try {
        if (selection) node.setSelectionRange(...selection);
      } catch { /* not a text field */ }
    }
  }
}

// For the browser tests: the state, the last sequence number, and `drop()` (closes the socket as
// a lost connection would).
window.momentumLive = {
  get state() { return state; },
  get lastSeq() { return lastSeq; },
  drop() { if (socket) socket.close(); },
};
