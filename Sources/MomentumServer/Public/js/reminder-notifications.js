// Reminders as browser notifications while the app is open: the edge around ReminderNotifier
// (permission, localStorage, the page's visibility, the Notification API). Permission is asked
// only when the person switches notifications on (Settings → Reminders), never at load.
import { api } from './api.js';
import { language } from './i18n.js';
import { ReminderNotifier } from './reminder-notifier.js';
import { subscribePush, unsubscribePush } from './push-subscription.js';

const WANTED_KEY = 'momentum.reminders.notify';
const SHOWN_KEY = 'momentum.reminders.shown';

let notifier = null;

/** 'unavailable', 'default' (not asked yet), 'denied' or 'granted'. */
export function permission() {
  return 'Notification' in window ? Notification.permission : 'unavailable';
}

/** Whether the person switched notifications on in this browser (and the browser still allows them). */
export function notificationsOn() {
  return localStorage.getItem(WANTED_KEY) === 'on' && permission() === 'granted';
}

/**
 * Switches notifications on, asking for permission if the browser has not been asked yet; call it
 * from a click. Resolves to the permission (only 'granted' switches them on) and, when granted,
 * `push`: a promise of what subscribing for Web Push comes to ('subscribed', 'unavailable' or
 * 'failed'; a browser's push service may take a while to answer).
 */
export async function switchOn() {
  let state = permission();
  if (state === 'default') state = await Notification.requestPermission();
  if (state !== 'granted') return { state };
  localStorage.setItem(WANTED_KEY, 'on');
  start();
  return { state, push: subscribePush() };
}

export async function switchOff() {
  localStorage.removeItem(WANTED_KEY);
  notifier?.stop();
  notifier = null;
  await unsubscribePush();
}

/**
 * At load: starts the notifier if the person switched it on earlier, and renews this browser's
 * push subscription (browsers let them expire and rotate them).
 */
export function startIfWanted() {
  if (!notificationsOn()) return;
  start();
  subscribePush();
}

function start() {
  if (notifier) return;
  notifier = new ReminderNotifier({
    fetchPlan: async () => (await api(`/reminders?days=2&lang=${encodeURIComponent(language())}`)).reminders,
    show,
    memory: shownMemory,
    now: testingClock() || (() => Date.now()),
  });
  notifier.start();
}

function show(reminder) {
  showNotification(reminder.title, { body: reminder.body, tag: reminder.occurrenceID });
}

/**
 * Shows a notification now if the browser allows them (a focus timer's end uses it too): `title`
 * with `options` (`body`, `tag`); clicking it brings the app forward.
 */
export function showNotification(title, options = {}) {
  if (permission() !== 'granted') return;
  const notification = new Notification(title, { ...options, lang: language(), icon: '/icon.svg' });
  notification.addEventListener('click', () => { window.focus(); notification.close(); });
}

const shownMemory = {
  load() {
    try {
      return JSON.parse(localStorage.getItem(SHOWN_KEY)) || {};
    } catch {
      return {};
    }
  },
  save(shown) { localStorage.setItem(SHOWN_KEY, JSON.stringify(shown)); },
};

/**
 * Testing hook: `?reminderClock=2026-11-24T06:29:57Z` starts the notifier's clock at that
 * instant (it then runs at normal speed), so a test sees a reminder due in minutes fire in seconds.
 * Only the notifier's idea of "now" moves; the server plans with its own clock.
 */
function testingClock() {
  const text = new URLSearchParams(location.search).get('reminderClock');
  const start = text ? Date.parse(text) : NaN;
  if (Number.isNaN(start)) return null;
  const loaded = performance.now();
  return () => start + (performance.now() - loaded);
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') notifier?.refresh();
});

window.momentumReminders = { state: () => (notifier ? notifier.state() : { running: false }) };
