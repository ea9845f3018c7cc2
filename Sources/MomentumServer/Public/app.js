// The app shell: loads the catalog, fills the nav, routes #hash to one section module.
import { welcomeIfNew } from './js/welcome.js';
import { loadCatalog, translate, t, rememberedLanguage, browserLanguage } from './js/i18n.js';
import { api } from './js/api.js';
import * as meditate from './js/meditate.js';
import * as library from './js/library.js';
import * as morse from './js/morse.js';
import * as breathe from './js/breathe.js';
import * as progress from './js/progress.js';
import * as settings from './js/settings.js';
import * as timers from './js/timers.js';
import * as workout from './js/workout.js';
import * as about from './js/about.js';
import { startIfWanted as startReminderNotifications } from './js/reminder-notifications.js';
import { startLive, relocalizeLive } from './js/live.js';
import { startOutbox, render as renderOutbox } from './js/outbox.js';
import { startKeeping } from './js/offline-store.js';
import { reportLeftBehind } from './js/runs.js';

const sections = { meditate, library, breathe, workout, timers, morse, progress, settings, about };
/** The sections a phone's "Practice" tab holds (app.css shows them as one tab and a switch row). */
const PRACTICES = ['meditate', 'library', 'breathe', 'workout'];
const mounted = new Set();
let current = null;

function route() {
  // A deep link names the section first: #meditate/preset/Morning, #meditate?minutes=20.
  const name = location.hash.replace(/^#/, '').split(/[/?]/)[0] || 'meditate';
  const key = name in sections ? name : 'meditate';
  for (const [id] of Object.entries(sections)) {
    document.getElementById(`view-${id}`).hidden = id !== key;
  }
  for (const link of document.querySelectorAll('[data-route]')) {
    if (link.dataset.route === key) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  // Phones: one "Practice" tab for the four practices, and the row that switches between them.
  const practice = PRACTICES.includes(key);
  document.querySelector('.tab-practice a')?.classList.toggle('group-current', practice);
  const switcher = document.getElementById('practice-switch');
  if (switcher) switcher.hidden = !practice;
  const view = document.getElementById(`view-${key}`);
  if (!mounted.has(key)) {
    mounted.add(key);
    sections[key].mount(view).catch(showError);
  } else if (sections[key].show) {
    sections[key].show(view);
  }
  if (current && current !== key && sections[current].hide) sections[current].hide();
  // After a tab change, move focus to the new section's heading so keyboard and screen reader
  // users land in it (not on the first load, and not for a deep link such as
  // #workout?program=tabata, whose section focuses its Start itself).
  if (current && current !== key) {
    window.scrollTo(0, 0);
    document.body.classList.remove('scrolled');
    const deepLink = /[/?]/.test(location.hash);
    const focusHeading = () => {
      const heading = view.querySelector('h1');
      if (heading) { heading.setAttribute('tabindex', '-1'); heading.focus(); }
    };
    if (!deepLink) requestAnimationFrame(focusHeading);
  }
  current = key;
}

/**
 * The skip link moves focus to the current section's content (its heading), leaving the route as
 * it is: following its `#main` would route to Meditate.
 */
function skipToContent(event) {
  event.preventDefault();
  const view = current && document.getElementById(`view-${current}`);
  const target = (view && view.querySelector('h1')) || view || document.getElementById('main');
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
  target.scrollIntoView({ block: 'start' });
}

export function showError(error) {
  // 401: the page is already on its way to the login page (api.js); nothing went wrong here.
  if (error && error.status === 401) return;
  console.error(error);
  const box = document.getElementById('app-error');
  box.textContent = error && error.code === 'network' ? t('error.offline') : t('error.generic');
  box.hidden = false;
}

/** Re-renders everything after a language change. */
export async function relocalize(lang) {
  await loadCatalog(lang);
  translate();
  relocalizeLive();
  renderOutbox();
  await Promise.all([...mounted].map(async (key) => {
    const view = document.getElementById(`view-${key}`);
    if (sections[key].remount) await sections[key].remount(view);
  }));
}
window.momentumRelocalize = relocalize;

async function start() {
  let lang;
  try {
    const s = await api('/settings');
    lang = s.language;
  } catch { /* the server out of reach: the language shown last here, else the browser's */ }
  if (!lang) lang = rememberedLanguage();
  if (!lang) lang = browserLanguage();
  try {
    await loadCatalog(lang);
  } catch (error) {
    showError(error);
  }
  translate();
  window.addEventListener('hashchange', route);
  // The tab of the section already shown leads to that section's first screen (a Morse session's
  // results back to the overview), as a tab bar does in a phone app; no hashchange comes for it.
  for (const link of document.querySelectorAll('[data-route]')) {
    link.addEventListener('click', () => {
      const key = link.dataset.route;
      if (key === current && location.hash === `#${key}` && sections[key].home) sections[key].home();
    });
  }
  // Phones: the Settings gear sits at the top right of the page's first screen, beside the
  // heading; once the page is scrolled it steps aside, so it never floats over text (issue 39),
  // and it is back at the top. The keyboard still reaches it (it shows when focused).
  const scrolled = () => {
    document.body.classList.toggle('scrolled', window.scrollY > 8);
  };
  window.addEventListener('scroll', scrolled, { passive: true });
  document.querySelector('a.skip')?.addEventListener('click', skipToContent);
  route();
  startLive();
  // Practices played offline, kept on this device until the server has logged them.
  startOutbox();
  // A practice played offline whose page was closed mid-way goes to the outbox, stopped then.
  reportLeftBehind().catch(console.error);
  // What this device keeps to practise offline, refreshed while online (Settings → Offline).
  startKeeping();
  startReminderNotifications();
  // A new person's first visit: the welcome, once (js/welcome.js).
  welcomeIfNew().catch(console.error);
  if ('serviceWorker' in navigator && location.protocol !== 'file:') {
    navigator.serviceWorker.register('/sw.js').catch(() => {});
  }
}

start();
