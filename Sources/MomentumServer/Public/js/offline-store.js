// What this device keeps to practise with the server out of reach (docs/offline.md): the list of
// prepared practices (GET /runs/prepared) and, within a budget the person sets in Settings, each
// one's sound as FLAC (GET /runs/prepared/{key}/audio), in Cache Storage. The service worker
// answers `/offline/audio/{key}` from that cache, byte ranges included, so an `<audio>` element
// plays it with no server. Kept while online: on every page load and when the browser comes back
// online; a practice's sound is fetched again only when its version changed. Practices are kept
// in the list's order (saved sits, breathing presets, workout programs) until the budget is full;
// one that does not fit is listed as not kept, with its size. A budget of 0 keeps nothing.
import { api } from './api.js';

export const OFFLINE_CACHE = 'momentum-offline-v1';
const INDEX = '/offline/index.json';
const BUDGET_KEY = 'momentum.offlineBudgetMB';
export const DEFAULT_BUDGET_MB = 200;
export const MOST_BUDGET_MB = 10000;
const MB = 1_000_000;

/** Where the service worker answers a kept practice's sound. */
export const audioPath = (key) => `/offline/audio/${encodeURIComponent(key)}`;

/** The budget for kept sound, in MB (1 MB = 1,000,000 bytes); a whole number, 0 keeps nothing. */
export function budgetMB() {
  let stored = null;
  try {
    stored = localStorage.getItem(BUDGET_KEY);
  } catch {
    stored = null;
  }
  const value = stored === null ? DEFAULT_BUDGET_MB : Number(stored);
  return Number.isInteger(value) && value >= 0 && value <= MOST_BUDGET_MB ? value : DEFAULT_BUDGET_MB;
}

/** Whether `value` (a field's text) is a budget: a whole number of MB within bounds. */
export function validBudget(value) {
  const text = String(value).trim();
  if (!/^[0-9]{1,5}$/.test(text)) return null;
  const number = Number(text);
  return number <= MOST_BUDGET_MB ? number : null;
}

/** Sets the budget and keeps again within it (dropping what no longer fits). */
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
 * exact, state}], prepared: [the server's practices]}`, where `state` is `kept`, `overBudget`,
 * `openEnded` (no length to prepare) or `failed`, and `bytes` is the sound's size when `exact`,
 * else how much of it was read before it was given up; null when nothing is.
 */
export async function kept() {
  if (!('caches' in window)) return null;
  try {
    const cache = await caches.open(OFFLINE_CACHE);
    const response = await cache.match(INDEX);
    return response ? await response.json() : null;
  } catch {
    return null;
  }
}

let refreshing = null;
/** Keeps the list and the sound again; one refresh at a time. Answers the index, or null. */
export function refresh() {
  if (!refreshing) {
    refreshing = refreshAll().catch(() => null).finally(() => { refreshing = null; });
  }
  return refreshing;
}

async function refreshAll() {
  if (!('caches' in window)) return null;
  const cache = await caches.open(OFFLINE_CACHE);
  const budget = budgetMB() * MB;
  if (budget === 0) {
    await clear(cache);
    notify(null);
    return null;
  }
  const { practices: prepared } = await api('/runs/prepared');
  const before = new Map(((await kept())?.practices || []).map((entry) => [entry.key, entry]));
  const practices = [];
  let used = 0;
  for (const practice of prepared) {
    const entry = { key: practice.key, kind: practice.kind, name: practice.name, version: practice.version, bytes: 0, state: 'failed' };
    const old = before.get(practice.key);
    const path = audioPath(practice.key);
    const cached = old && old.version === practice.version ? old : null;
    if (cached && cached.state === 'kept' && await cache.match(path)) {
      entry.bytes = cached.bytes;
      entry.exact = true;
      entry.state = used + cached.bytes <= budget ? 'kept' : 'overBudget';
    } else if (cached && (cached.state === 'openEnded' || (cached.state === 'overBudget' && used + cached.bytes > budget))) {
      // Known not to fit (or to have no length): not fetched again until it changes or room grows.
      entry.bytes = cached.bytes;
      entry.exact = cached.exact;
      entry.state = cached.state;
    } else if (practice.practice?.meditation?.isOpenEnded) {
      entry.state = 'openEnded';
    } else {
      Object.assign(entry, await fetchSound(cache, practice, budget - used));
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
  const index = { refreshedAt: Date.now(), budgetMB: budget / MB, practices, prepared };
  await cache.put(INDEX, new Response(JSON.stringify(index), { headers: { 'Content-Type': 'application/json' } }));
  notify(index);
  return index;
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

async function clear(cache) {
  for (const request of await cache.keys()) await cache.delete(request);
}

function notify(index) {
  for (const listener of listeners) listener(index);
}

/** Keeps what is needed now (if online) and whenever the browser comes back online. */
export function startKeeping() {
  if (!('caches' in window)) return;
  window.addEventListener('online', () => { refresh(); });
  if (navigator.onLine !== false) refresh();
}
