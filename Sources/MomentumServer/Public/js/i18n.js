// Every visible string comes from the server catalog (GET /api/v1/catalog?lang=…), and with it
// the locale to format in (`locale`) and every form field's bounds and default (`forms`).
// A key the catalog lacks shows as itself and is listed by missingKeys() (the browser tests
// fail on any).
import { api, setRequestLanguage } from './api.js';

let catalog = { language: 'en', locale: 'en', strings: {}, lists: {}, forms: {} };
const missing = new Set();

export function language() {
  return catalog.language;
}

/** The BCP 47 tag (`en-GB`, `de-DE`) the server's catalog says to format dates, numbers and lists in. */
export function locale() {
  return catalog.locale || catalog.language;
}

/** `h23` or `h12`: the clock the page's language reads times on (decided by the server's core). */
export function hourCycle() {
  return catalog.hourCycle || 'h23';
}

/** A form field's `{min, max, step, default, maxLength}` from the catalog (the core's FormBounds). */
export function fieldBounds(id) {
  const bounds = (catalog.forms || {})[id];
  if (!bounds) missing.add(`forms.${id}`);
  return bounds || {};
}

/**
 * The input attributes of a field's bounds: `min`, `max` and `step`, those it has. A text's
 * `maxLength` is not made a `maxlength`: that would cut a pasted name without a word; the server
 * refuses a name over the limit, with the limit, beside the field (form-errors.js).
 */
export function boundAttributes(id) {
  const { min, max, step } = fieldBounds(id);
  const attributes = { min, max, step };
  return Object.fromEntries(Object.entries(attributes).filter(([, value]) => value != null));
}

export async function loadCatalog(lang) {
  const query = lang ? `?lang=${encodeURIComponent(lang)}` : '';
  try {
    catalog = await api(`/catalog${query}`);
    keepCatalog(catalog).catch(() => {}); // a browser that keeps nothing still shows the page
  } catch (error) {
    // The server out of reach: the catalog this device kept last (docs/offline.md).
    const kept = error && error.code === 'network' ? await keptCatalog(lang || lastLanguage()) : null;
    if (!kept) throw error;
    catalog = kept;
  }
  document.documentElement.lang = catalog.language;
  setRequestLanguage(catalog.language);
  return catalog;
}

// The catalogs are kept on this device, each as it was last loaded, with the language last shown,
// so the app reads in the person's language with the server out of reach. Not part of the
// budget for sound (a catalog is small); the service worker never answers these paths.
const CATALOG_CACHE = 'momentum-offline-v1';
const LANGUAGE_KEY = 'momentum.language';
const catalogPath = (lang) => `/offline/catalog/${encodeURIComponent(lang)}.json`;

/** The browser's own language, as Momentum has it: 'de' for any German, else 'en'. */
export function browserLanguage() {
  return (navigator.language || 'en').toLowerCase().startsWith('de') ? 'de' : 'en';
}

/** The language this device showed last, or null. */
export function rememberedLanguage() {
  try { return localStorage.getItem(LANGUAGE_KEY); } catch { return null; }
}

function lastLanguage() {
  return rememberedLanguage() || 'en';
}

/**
 * Keeps `loaded` (a catalog as the server answered it) for when the server is out of reach;
 * `shown`: it is the language the page shows now (remembered for the next start offline).
 */
export async function keepCatalog(loaded, { shown = true } = {}) {
  if (shown) {
    try { localStorage.setItem(LANGUAGE_KEY, loaded.language); } catch { /* private mode */ }
  }
  if (!('caches' in window) || window.isSecureContext === false) return;
  const cache = await caches.open(CATALOG_CACHE);
  await cache.put(catalogPath(loaded.language), new Response(JSON.stringify(loaded), { headers: { 'Content-Type': 'application/json' } }));
}

async function keptCatalog(lang) {
  if (!('caches' in window) || window.isSecureContext === false) return null;
  try {
    const found = await (await caches.open(CATALOG_CACHE)).match(catalogPath(lang));
    return found ? await found.json() : null;
  } catch {
    return null;
  }
}

/** The text for `key` with `{name}` placeholders filled from `args`. */
export function t(key, args = {}) {
  let text = catalog.strings[key];
  if (text === undefined) {
    missing.add(key);
    text = key;
  }
  for (const [name, value] of Object.entries(args)) {
    const shown = String(value);
    // A value that ends a sentence itself (a letter, then . ! ? or …) takes the place of the
    // sentence's full stop ("by Mara L.", not "by Mara L.."), as StringCatalog.format does on the
    // server; a lone mark (a host ".") is a literal and keeps it.
    if (/\p{L}[.!?…]$/u.test(shown)) text = text.replaceAll(`{${name}}.`, shown);
    text = text.replaceAll(`{${name}}`, shown);
  }
  return text;
}

export function list(name) {
  return catalog.lists[name] || [];
}

/** Keys the UI asked for that the catalog lacks (for tests and docs). */
export function missingKeys() {
  return [...missing].sort();
}

/** Fills [data-i18n] (text) and [data-i18n-label] (aria-label) under `root`. */
export function translate(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}

/**
 * mm:ss, or h:mm:ss from an hour on, rounding up: a ticking countdown between two server answers.
 * The core's DurationFormatting.clock does the same; both are checked against one table
 * (browser-tests/clock-fixtures.json: a Swift test and a browser test).
 */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/**
 * A board's seconds left, as large as they can be read: under a minute the seconds alone ("45",
 * "9"), then m:ss and h:mm:ss without a leading zero ("1:30", "1:00:00"); rounding up as `clock`.
 */
export function countdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  if (total < 60) return String(total);
  const text = clock(total * 1000);
  return text.startsWith('0') && text.indexOf(':') === 2 ? text.slice(1) : text;
}

export function number(value, options) {
  return new Intl.NumberFormat(locale(), options).format(value);
}

/** A `YYYY-MM-DD` day (as the server counts and writes it) as a UTC date, so formatting never shifts it. */
export function dayDate(day) {
  const [y, m, d] = String(day).split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}

/** A `YYYY-MM-DD` day formatted for the person's language (default: "Sunday, 22 November 2026"). */
export function formatDay(day, options = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }) {
  return new Intl.DateTimeFormat(locale(), { ...options, timeZone: 'UTC' }).format(dayDate(day));
}

/** When something kept on this device was made (`ms` since 1970): "2 Dec 2026, 07:30". */
export function keptTime(ms) {
  return new Intl.DateTimeFormat(language(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
}

/** "A, B and C" in the person's language. */
export function listText(items) {
  return new Intl.ListFormat(locale(), { style: 'long', type: 'conjunction' }).format(items);
}

window.momentumI18n = { missingKeys, t, locale };

/**
 * The text to show for a failed API call: the server's message for a refusal (4xx; it is already
 * in the UI's language, sent as Accept-Language), the generic text for anything else.
 */
export function localizeError(error) {
  if (error && error.code === 'network') return t('error.offline');
  const message = error && error.message;
  if (!message || !error.status || error.status >= 500) return t('error.generic');
  return message;
}

/** As localizeError, and logs what is not a plain 4xx answer (those are expected). */
export function errorText(error) {
  if (!error || !error.status || error.status >= 500) console.error(error);
  return localizeError(error);
}
