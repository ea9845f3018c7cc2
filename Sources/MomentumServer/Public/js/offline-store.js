// What this device keeps to practise with the server out of reach (docs/offline.md): the list of
// prepared practices (GET /runs/prepared) and, within a budget the person sets in Settings, each
// one's sound as FLAC (GET /runs/prepared/{key}/audio), in Cache Storage. The service worker
// answers `/offline/audio/{key}` from that cache, byte ranges included, so an `<audio>` element
// plays it with no server. Kept while online: on every page load and when the browser comes back
// online; a practice's sound is fetched again only when its version changed. Practices are kept
// in the list's order (saved sits, breathing presets, workout programs) until the budget is full;
// one that does not fit is listed as not kept. A budget of 0 keeps nothing.
import { api } from './api.js';
import { fieldBounds, keepCatalog, language } from './i18n.js';

export const OFFLINE_CACHE = 'momentum-offline-v1';
const INDEX = '/offline/index.json';
const BUDGET_KEY = 'momentum.offlineBudgetMB';
const MB = 1_000_000;
/** The languages the app reads in (Settings' choice). */
const LANGUAGES = ['en', 'de'];

/** Where the service worker answers a kept practice's sound. */
export const audioPath = (key) => `/offline/audio/${encodeURIComponent(key)}`;

/** The budget's bounds and default, the core's (`offline.budgetMB`); null before the catalog. */
export function budgetBounds() {
  const bounds = fieldBounds('offline.budgetMB');
  return Number.isFinite(bounds.min) && Number.isFinite(bounds.max) && Number.isFinite(bounds.default) ? bounds : null;
}

/**
 * The budget for kept sound, in whole MB (1 MB = 1,000,000 bytes); 0 keeps nothing. Null when
 * neither a stored value nor the catalog's default is known (nothing is changed then).
 */
export function budgetMB() {
  let stored = null;
  try {
    stored = localStorage.getItem(BUDGET_KEY);
  } catch {
    stored = null;
  }
  const bounds = budgetBounds();
  if (stored !== null && /^[0-9]+$/.test(stored)) {
    const value = Number(stored);
    if (!bounds || (value >= bounds.min && value <= bounds.max)) return value;
  }
  return bounds ? bounds.default : null;
}

/** `value` (a field's text) as a budget: a whole number of MB within the bounds; else null. */
export function validBudget(value) {
  const text = String(value).trim();
  const bounds = budgetBounds();
  if (!bounds || !/^[0-9]+$/.test(text)) return null;
  const number = Number(text);
  return number >= bounds.min && number <= bounds.max ? number : null;
}

/**
 * Sets the budget and keeps again within it (dropping what no longer fits); throws when the
 * browser lets the page store nothing.
 */
export function setBudgetMB(value) {
  localStorage.setItem(BUDGET_KEY, String(value));
  return refresh();
}

const listeners = new Set();
/** Calls `listener(index)` whenever what is kept changed. */
export function onKeptChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What is kept: `{refreshedAt, budgetMB, practices: [{key, kind, name, version, bytes,
 * exact, state}], prepared: [the server's practices], unreached}`, where `state` is `kept`,
 * `overBudget`, `openEnded` (no length to prepare), `noSpace` (the browser's storage is full) or
 * `failed`, `bytes` is the sound's size when `exact`, else how much of it was read before it was
 * given up, and `unreached` says the last refresh found the server out of reach (the budget was
 * applied to what was kept); null when nothing is.
 */
export async function kept() {
  if (!available()) return null;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    const response = await cache.match(INDEX);
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

/** Whether this browser lets the page keep anything (Cache Storage needs HTTPS or localhost). */
export function available() {
  return 'caches' in window && window.isSecureContext !== false;
}

let refreshing = null;
let again = false;
/**
 * Keeps the list and the sound again, one refresh at a time in this page (and, where the browser
 * has Web Locks, across its tabs); asked again while one runs, it runs once more after it, so a
 * budget just set is always applied. Answers the index, or null when nothing is kept.
 */
export function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    let index = null;
    do {
      again = false;
      index = await exclusively(refreshAll).catch(() => null);
    } while (again);
    return index;
  })().finally(() => { refreshing = null; });
  return refreshing;
}

function exclusively(work) {
  return navigator.locks ? navigator.locks.request('momentum-offline', work) : work();
}

async function refreshAll() {
  if (!available()) return null;
  const cache = await caches.open(OFFLINE_CACHE);
  const megabytes = budgetMB();
  if (megabytes === null) return kept();
  const budget = megabytes * MB;
  if (budget === 0) {
    await clear(cache);
    notify(null);
    return null;
  }
  const previous = await kept();
  let prepared = null;
  try {
    prepared = (await api('/runs/prepared')).practices;
  } catch {
    prepared = null; // out of reach: the budget still applies to what is kept
  }
  // The other languages' catalogs too, so a change of language offline reads (i18n.js keeps
  // the one shown whenever it loads).
  if (prepared) {
    for (const other of LANGUAGES.filter((lang) => lang !== language())) {
      await api(`/catalog?lang=${other}`).then((loaded) => keepCatalog(loaded, { shown: false })).catch(() => {});
    }
  }
  const before = new Map((previous?.practices || []).map((entry) => [entry.key, entry]));
  const practices = [];
  let used = 0;
  for (const practice of prepared || previous?.prepared || []) {
    const entry = { key: practice.key, kind: practice.kind, name: practice.name, version: practice.version, bytes: 0, exact: false, state: 'failed' };
    const path = audioPath(practice.key);
    try {
      Object.assign(entry, await keepOne(cache, practice, before.get(practice.key), budget - used, prepared !== null));
    } catch (error) {
      entry.state = error && error.name === 'QuotaExceededError' ? 'noSpace' : 'failed';
    }
    if (entry.state === 'kept') used += entry.bytes;
    else await cache.delete(path);
    practices.push(entry);
  }
  // Sound of practices no longer listed (deleted, renamed away) goes.
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path.startsWith('/offline/audio/') && !practices.some((entry) => entry.state === 'kept' && audioPath(entry.key) === path)) {
      await cache.delete(request);
    }
  }
  const index = {
    refreshedAt: prepared ? Date.now() : previous?.refreshedAt ?? Date.now(), budgetMB: budget / MB,
    unreached: !prepared, practices, prepared: prepared || previous?.prepared || [],
  };
  await cache.put(INDEX, new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } }));
  notify(index);
  return index;
}

/**
 * One practice within `room` bytes: `{bytes, exact, state}`. What is kept at this version is not
 * fetched again, nor what is known not to fit; nothing is fetched when the server is out of reach.
 */
async function keepOne(cache, practice, old, room, reached) {
  const cached = old && old.version === practice.version ? old : null;
  if (cached && cached.state === 'kept' && await cache.match(audioPath(practice.key))) {
    return { bytes: cached.bytes, exact: true, state: cached.bytes <= room ? 'kept' : 'overBudget' };
  }
  if (practice.practice?.meditation?.isOpenEnded) return { bytes: 0, exact: false, state: 'openEnded' };
  const knownTooLarge = cached && cached.state === 'overBudget' && cached.bytes > room;
  if (knownTooLarge || !reached) {
    return cached ? { bytes: cached.bytes, exact: !!cached.exact, state: cached.state === 'kept' ? 'failed' : cached.state } : { bytes: 0, exact: false, state: 'failed' };
  }
  return fetchSound(cache, practice, room);
}

/**
 * Fetches a practice's sound and keeps it if it fits in `room` bytes: read as it comes, and given
 * up as soon as it is larger. Answers `{bytes, state}`; throws when the server is not reached.
 */
async function fetchSound(cache, practice, room) {
  const response = await fetch(`/api/v1/runs/prepared/${encodeURIComponent(practice.key)}/audio`, {
    credentials: 'same-origin', headers: { Accept: 'audio/flac' },
  });
  if (response.status === 422) {
    await response.body?.cancel();
    return { bytes: 0, state: 'openEnded' };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    return { bytes: 0, state: 'failed' };
  }
  const reader = response.body.getReader();
  const chunks = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > room) {
      await reader.cancel();
      return { bytes, exact: false, state: 'overBudget' };
    }
    chunks.push(value);
  }
  const sound = new Blob(chunks, { type: 'audio/flac' });
  await cache.put(audioPath(practice.key), new Response(sound, {
    headers: { 'Content-Type': 'audio/flac', 'Content-Length': String(bytes), 'X-Momentum-Version': practice.version },
  }));
  return { bytes, exact: true, state: 'kept' };
}

/** Forgets every kept sound and the index (the catalogs stay: they are not sound). */
async function clear(cache) {
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (path === INDEX || path.startsWith('/offline/audio/')) await cache.delete(request);
  }
}

function notify(index) {
  for (const listener of listeners) listener(index);
}

/** Keeps what is needed now (if online) and whenever the browser comes back online. */
export function startKeeping() {
  if (!available()) return;
  window.addEventListener('online', () => { refresh(); });
  if (navigator.onLine !== false) refresh();
}
