// The welcome (issue 39): once, on a person's first visit — a new person, nothing practised yet,
// and this browser has not shown it — a short form asks their name (the household's founder is no
// longer "owner"), a daily goal for mindfulness, whether to be reminded every day (and, when the
// chosen time falls in quiet hours, says what the server's plan makes of it), and shows how to add
// the app to the Home Screen on this browser. Every value is checked by the server and refused
// beside its field (form-errors.js). "Not now" and "Start" both end it for this browser.
import { api } from './api.js';
import { t, boundAttributes, fieldBounds, language } from './i18n.js';
import { el, field, announce } from './dom.js';
import { submitForm } from './form-errors.js';

const KEY = 'momentum.welcomed';
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
let installPrompt = null;
window.addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault();
  installPrompt = event;
});

function seen() {
  try { return window.localStorage.getItem(KEY) === '1'; } catch { return true; }
}

function remember() {
  try { window.localStorage.setItem(KEY, '1'); } catch { /* shown again next time: harmless */ }
}

/** Shows the welcome when this is a new person's first visit in this browser; resolves when done. */
export async function welcomeIfNew() {
  if (seen()) return;
  let session;
  let settings;
  let statistics;
  try {
    [session, settings, statistics] = await Promise.all([api('/session'), api('/settings'), api('/progress/statistics?period=all')]);
  } catch (error) {
    console.warn(error);
    return;
  }
  // Someone who has practised already knows the app (an upgrade, a second device).
  if (!session || !session.person || (statistics.total && statistics.total.sessions > 0)) {
    remember();
    return;
  }
  await show(session.person, settings);
}

function show(person, settings) {
  const goalBounds = 'progress.mindfulnessGoal';
  const name = el('input', { type: 'text', id: 'welcome-name', name: 'name', autocomplete: 'given-name', value: person.name === 'owner' ? '' : person.name });
  const goal = el('input', { type: 'number', id: 'welcome-goal', name: 'goal', inputmode: 'numeric', ...boundAttributes(goalBounds), value: (settings.progress.goals || {}).mindfulness ?? fieldBounds(goalBounds).default });
  const remind = el('input', { type: 'checkbox', id: 'welcome-remind', name: 'remind' });
  const time = el('input', { type: 'text', id: 'welcome-time', name: 'time', size: 5, autocomplete: 'off', spellcheck: 'false', class: 'time-text', value: settings.reminders.preferredTime || '09:00', 'aria-labelledby': 'welcome-remind-text', 'aria-describedby': 'welcome-quiet' });
  const quiet = settings.reminders.quietHours || {};
  const error = el('p', { class: 'error', id: 'welcome-error', role: 'alert', hidden: '' });
  const start = el('button', { type: 'submit', class: 'primary', id: 'welcome-start' }, t('welcome.start'));
  const later = el('button', { type: 'button', class: 'secondary', id: 'welcome-later' }, t('welcome.later'));
  const form = el('form', { class: 'form', id: 'welcome-form', novalidate: '' },
    el('h2', { id: 'welcome-title' }, t('welcome.title')),
    el('p', {}, t('welcome.intro')),
    field('welcome-name', t('welcome.name'), name),
    field('welcome-goal', t('welcome.goal'), goal, t('meditate.minutesUnit')),
    el('div', { class: 'field' },
      el('label', { class: 'check', for: 'welcome-remind' }, remind, el('span', { id: 'welcome-remind-text' }, t('welcome.remind'))),
      time,
      el('p', { class: 'muted', id: 'welcome-quiet' }, t('welcome.quietHours', { start: quiet.start || '22:00', end: quiet.end || '08:00' }))),
    homeScreenPart(),
    error,
    el('div', { class: 'actions' }, start, later));
  const dialog = el('dialog', { id: 'welcome', class: 'card welcome', 'aria-labelledby': 'welcome-title' }, form);
  document.body.append(dialog);
  time.disabled = true;
  remind.addEventListener('change', () => { time.disabled = !remind.checked; if (remind.checked) time.focus(); });
  return new Promise((resolve) => {
    const close = () => {
      remember();
      dialog.close();
      dialog.remove();
      resolve();
    };
    later.addEventListener('click', close);
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); close(); });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const controls = { name, goals: goal, mindfulness: goal, time, daily: time };
      const sent = await submitForm(form, error, controls, async () => {
        const typed = name.value.trim();
        if (typed !== person.name) await api(`/people/${encodeURIComponent(person.id)}`, { method: 'PATCH', body: { name: typed } });
        const daily = settings.reminders.daily || [];
        const id = String(Math.max(0, ...daily.map((d) => Number(d.id) || 0)) + 1);
        const reminders = { daily: [...daily, { id, time: time.value.trim(), weekdays: WEEKDAYS, category: 'mindfulness' }] };
        await api('/settings', { method: 'PATCH', body: { progress: { goals: { mindfulness: Number(goal.value) } }, ...(remind.checked ? { reminders } : {}) } });
      });
      if (!sent) return;
      const moved = remind.checked ? await movedText() : '';
      if (!moved) {
        announce(t('welcome.done'));
        close();
        return;
      }
      // The chosen time is in quiet hours: say what the plan makes of it, then let them go.
      const ok = el('button', { type: 'button', class: 'primary', id: 'welcome-ok' }, t('welcome.ok'));
      ok.addEventListener('click', close);
      form.replaceChildren(
        el('h2', { id: 'welcome-title' }, t('welcome.movedTitle')),
        el('p', { id: 'welcome-moved' }, moved),
        el('p', { class: 'muted' }, t('welcome.movedHelp')),
        el('div', { class: 'actions' }, ok));
      ok.focus();
    });
    dialog.showModal();
    name.focus();
  });
}

/** The sentence the server's plan gives the new daily reminder when quiet hours move it. */
async function movedText() {
  try {
    const plan = await api(`/reminders?days=2&lang=${encodeURIComponent(language())}`);
    const moved = (plan.reminders || []).find((r) => r.movedText);
    return moved ? moved.movedText : '';
  } catch (error) {
    console.warn(error);
    return '';
  }
}

/** How to add Momentum to the Home Screen in this browser (nothing once it runs from there). */
function homeScreenPart() {
  const standalone = window.matchMedia('(display-mode: standalone)').matches || window.navigator.standalone === true;
  if (standalone) return null;
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const part = el('div', { class: 'welcome-home', id: 'welcome-home' }, el('h3', {}, t('welcome.homeTitle')));
  if (installPrompt) {
    const add = el('button', { type: 'button', class: 'secondary', id: 'welcome-install' }, t('welcome.install'));
    add.addEventListener('click', async () => {
      installPrompt.prompt();
      await installPrompt.userChoice.catch(() => null);
      installPrompt = null;
      add.remove();
    });
    part.append(el('p', { class: 'muted' }, t('welcome.homeInstall')), add);
  } else {
    part.append(el('p', { class: 'muted', id: 'welcome-home-how' }, t(ios ? 'welcome.homeIOS' : 'welcome.homeOther')));
  }
  return part;
}
