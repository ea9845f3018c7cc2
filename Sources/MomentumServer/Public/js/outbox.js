// Practices played away from the server, kept on this device until the server has logged them
// (docs/offline.md). Each is a run report — its id made here, the practice as the server prepared
// it, the instants of its start, pauses, resumes and stop — kept in IndexedDB, so a closed tab or
// a restarted phone loses nothing. Reports are sent on every page load, when the browser comes
// back online and when the page becomes visible; the server logs each once by its id, so sending
// one twice (an answer lost on the way, a reload in between) is harmless. A report is forgotten
// only once the server answered 2xx. One the server refuses stays, with the server's reason, until
// the person removes it: nothing is dropped silently.
//
// Focus-timer changes made offline (js/timer-intents.js) go with the same sendings and show in the
// same status line.
import { api } from './api.js';
import { t } from './i18n.js';
import { sendIntents, waitingIntents, refusedIntents, dismissIntents } from './timer-intents.js';

const DATABASE = 'momentum-offline';
const STORE = 'reports';

/** The device's database, opened once. */
let opened = null;
function database() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'report.id' });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

async function transact(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction(STORE, mode);
    const result = work(transaction.objectStore(STORE));
    transaction.oncomplete = () => resolve(result && 'result' in result ? result.result : undefined);
    transaction.onerror = () => reject(transaction.error);
  });
}

/**
 * Keeps `report` (the body of POST /runs/reports) with the practice's `name` for the person, and
 * starts sending it at once; answers once it is kept (a slow or lost connection does not hold up
 * the page: `send()` answers when sending ends).
 */
export async function keep(report, name) {
  keptHere.set(report.id, report);
  await transact('readwrite', (store) => store.put({ report, name, keptAt: Date.now(), refused: null }));
  render();
  send();
}

/** Every report still on this device, oldest first. */
export async function waiting() {
  const all = await transact('readonly', (store) => store.getAll());
  return (all || []).sort((a, b) => a.keptAt - b.keptAt);
}

async function forget(id) {
  await transact('readwrite', (store) => store.delete(id));
}

let sending = null;
let again = false;

/**
 * Sends every report not refused, oldest first; stops at the first that cannot reach the server
 * (offline, or the server busy), to try again later. Answers how many were logged or found logged.
 */
export function send() {
  if (sending) {
    // Asked while sending (a report kept or changed meanwhile): once more after it.
    again = true;
    return sending;
  }
  // A device whose browser keeps no database (IndexedDB refused) has nothing waiting.
  sending = (async () => {
    let sent = 0;
    do {
      again = false;
      // try: not reached now; they wait for the next sending.
      await sendIntents().catch(() => null);
      sent += await sendAll().catch(() => 0);
    } while (again);
    return sent;
  })().finally(() => {
    sending = null;
    render();
  });
  return sending;
}

/** The sessions logged from this page's reports (id → record), for a note written after. */
const logged = new Map();
/** The reports this page kept (id → report), should another page send one first. */
const keptHere = new Map();

/**
 * Keeps `note` with report `id`: in the report while it waits (it goes with it), else on the
 * session it was logged as (the log's Edit, with the session's other details kept). Answers
 * `{ details }`; throws as the server refuses.
 */
export async function noteReport(id, note) {
  const entries = await waiting().catch(() => []);
  const entry = entries.find((candidate) => candidate.report.id === id);
  if (entry && !entry.refused) {
    if (note) entry.report.note = note;
    else delete entry.report.note;
    await transact('readwrite', (store) => store.put(entry));
    send();
    return { details: note ? { note } : {}, waits: true };
  }
  if (!logged.has(id) && keptHere.has(id)) {
    // Sent by another page (another tab's outbox): sent again, it finds the session it was
    // logged as and brings the note (nothing is logged twice).
    const answer = await api('/runs/reports', { method: 'POST', body: { ...keptHere.get(id), ...(note ? { note } : {}) } });
    if (answer && answer.record) logged.set(id, answer.record);
  }
  const record = logged.get(id);
  if (!record) return { details: note ? { note } : {} }; // logged as nothing (too short, discarded)
  if ((record.details?.note || '') === note) return record;
  const details = { ...(record.details || {}) };
  if (note) details.note = note;
  else delete details.note;
  const saved = await api(`/log/${encodeURIComponent(record.id)}`, { method: 'PATCH', body: { details } });
  logged.set(id, saved);
  return saved;
}

async function sendAll() {
  let sent = 0;
  for (const entry of await waiting()) {
    if (entry.refused) continue;
    try {
      const answer = await api('/runs/reports', { method: 'POST', body: entry.report });
      if (answer && answer.record) logged.set(entry.report.id, answer.record);
      // A note written while this was on its way stays, and goes with it again.
      const now = (await waiting()).find((candidate) => candidate.report.id === entry.report.id);
      if (now && (now.report.note || '') !== (entry.report.note || '')) {
        again = true;
        continue;
      }
      await forget(entry.report.id);
      sent += 1;
    } catch (error) {
      // Not reached, signed out, or the server busy or failing: keep it and try again later.
      if (error.code === 'network' || error.status === 401 || error.status === 429 || error.status >= 500) break;
      entry.refused = error.message || String(error);
      await transact('readwrite', (store) => store.put(entry));
    }
  }
  return sent;
}

/** Removes a refused report the person has read. */
export async function dismiss(id) {
  await forget(id);
  render();
}

/**
 * Shows, in the page's status region, how many practices wait to be saved and each refused one
 * with the server's reason and a Remove button; nothing when all are saved.
 */
export async function render() {
  const region = document.getElementById('live-status');
  if (!region) return;
  let entries = [];
  try {
    entries = await waiting();
  } catch {
    entries = [];
  }
  const shown = region.querySelector('#offline-waiting');
  const pending = entries.filter((entry) => !entry.refused);
  const refused = entries.filter((entry) => entry.refused);
  const intents = waitingIntents();
  const intentsRefused = refusedIntents();
  if (!pending.length && !refused.length && !intents) {
    shown?.remove();
    return;
  }
  const box = document.createElement('div');
  box.id = 'offline-waiting';
  box.className = 'offline-waiting';
  if (pending.length) {
    const line = document.createElement('p');
    line.id = 'offline-waiting-count';
    line.textContent = pending.length === 1 ? t('offline.waitingOne') : t('offline.waitingMany', { count: pending.length });
    box.append(line);
  }
  if (intents && !intentsRefused) {
    const line = document.createElement('p');
    line.id = 'offline-waiting-timers';
    line.textContent = intents === 1 ? t('offline.timers.waitingOne') : t('offline.timers.waitingMany', { count: intents });
    box.append(line);
  }
  if (intentsRefused) {
    box.append(refusedLine(t('offline.timers.refused', { reason: intentsRefused }), () => { dismissIntents(); render(); }));
  }
  for (const entry of refused) {
    box.append(refusedLine(t('offline.refused', { name: entry.name || '', reason: entry.refused }), () => dismiss(entry.report.id)));
  }
  // The same words stay as they are: a status region announces every change.
  if (shown && shown.outerHTML === box.outerHTML) return;
  shown?.remove();
  region.append(box);
}

/** A line saying what the server refused and why, with Remove (`onRemove`). */
function refusedLine(text, onRemove) {
  const line = document.createElement('p');
  line.className = 'offline-refused';
  line.textContent = text;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'secondary small';
  remove.textContent = t('offline.remove');
  remove.addEventListener('click', onRemove);
  line.append(' ', remove);
  return line;
}

/** Sends what waits now and whenever the connection or the page comes back. */
export function startOutbox() {
  if (!('indexedDB' in window)) return;
  window.addEventListener('online', () => { send(); });
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') send(); });
  send();
}
