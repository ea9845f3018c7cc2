// Settings: the language (en/de), how progress is counted (time zone, day start, jokers, hiding
// streaks, daily goals), reminders (settings-reminders.js), backing up and restoring
// (settings-backup.js) and, for a browser signed in with a token, signing out. The theme follows
// the system. The server checks every value; its message shows under the form.
import { api } from './api.js';
import { t, language, errorText, boundAttributes, fieldBounds } from './i18n.js';
import { el, field, announce } from './dom.js';
import { remindersCard } from './settings-reminders.js';
import { backupCard } from './settings-backup.js';
import { onLive, whenNotTyping, keepingInput } from './live.js';

let root;
let stale = false; // a setting changed live while Settings was not shown
let requestedLanguage = null; // the language this page just chose (its live echo is no news)

/** Drawn again when shown after a setting changed elsewhere. */
export const show = () => {
  if (!stale) return undefined;
  return render().catch(console.error);
};

// Live (js/live.js): a setting changed on another device (or through the API) shows here. The
// form is drawn again with the server's values, except what the person has changed and not yet
// saved; not while they type (then once they leave the field). A new language relocalizes the
// whole page.
onLive(['setting'], ({ changes, refresh }) => {
  const chosen = changes.filter((change) => change.id === 'language' && change.op === 'set').pop();
  if (chosen && typeof chosen.value === 'string') {
    const browser = (navigator.language || 'en').toLowerCase().startsWith('de') ? 'de' : 'en';
    const lang = chosen.value === 'auto' ? browser : chosen.value;
    if (lang !== requestedLanguage && lang !== language() && window.momentumRelocalize) {
      window.momentumRelocalize(lang).catch(console.error);
      return;
    }
  }
  if (!chosen && !refresh && !changes.length) return;
  if (!root) return;
  if (root.hidden || !root.isConnected) {
    stale = true;
    return;
  }
  whenNotTyping(root, () => keepingInput(root, () => render()).catch(console.error));
});

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };

async function render() {
  stale = false;
  const [settings, session] = await Promise.all([
    api('/settings'),
    api('/session').catch(() => ({ canSignOut: false })),
  ]);
  // replaceChildren would show a null as the text "null".
  root.replaceChildren(...[
    el('h1', { id: 'h-settings' }, t('nav.settings')),
    languageCard(),
    progressForm(settings.progress || {}),
    remindersCard(settings.reminders || {}, { saved: remindersSaved }),
    backupCard(),
    session.canSignOut ? accessCard() : null,
    el('p', { class: 'about-link' }, el('a', { href: '#about', id: 's-about' }, t('about.link'))),
  ].filter(Boolean));
}

async function remindersSaved() {
  await render();
  root.querySelector('#r-save')?.focus();
}

function languageCard() {
  const select = el('select', { id: 's-language', name: 'language' },
    el('option', { value: 'en', lang: 'en', ...(language() === 'en' ? { selected: '' } : {}) }, 'English'),
    el('option', { value: 'de', lang: 'de', ...(language() === 'de' ? { selected: '' } : {}) }, 'Deutsch'));
  select.addEventListener('change', async () => {
    const lang = select.value;
    requestedLanguage = lang;
    try {
      await api('/settings', { method: 'PATCH', body: { language: lang } });
    } catch (error) {
      console.error(error);
    }
    await window.momentumRelocalize(lang);
    root.querySelector('#s-language')?.focus();
  });
  return el('div', { class: 'card form' },
    field('s-language', t('settings.language'), select),
    el('p', { class: 'muted' }, t('settings.theme')));
}

/** The zones the browser knows, with the server's own zone ("auto") first. */
function timeZoneSelect(current) {
  const select = el('select', { id: 's-time-zone', name: 'timeZone' },
    el('option', { value: '' }, t('settings.timeZone.auto')));
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  if (current && !zones.includes(current)) zones.unshift(current);
  for (const zone of zones) {
    select.append(el('option', { value: zone, ...(zone === current ? { selected: '' } : {}) }, zone.replaceAll('_', ' ')));
  }
  return select;
}

function checkbox(id, checked) {
  return el('input', { type: 'checkbox', id, name: id, ...(checked ? { checked: '' } : {}) });
}

function progressForm(progress) {
  const zone = timeZoneSelect(progress.timeZoneIdentifier);
  const dayStart = el('select', { id: 's-day-start', name: 'dayStartHour' });
  const hours = fieldBounds('progress.dayStartHour');
  for (let hour = hours.min; hour <= hours.max; hour += hours.step || 1) {
    dayStart.append(el('option', { value: hour, ...(hour === (progress.dayStartHour ?? hours.default) ? { selected: '' } : {}) },
      `${String(hour).padStart(2, '0')}:00`));
  }
  const goals = progress.goals || {};
  const goal = (id, bounds, value) => el('input', { type: 'number', id, name: id, ...boundAttributes(bounds), value: value ?? fieldBounds(bounds).default, inputmode: 'numeric' });
  const jokers = checkbox('s-jokers', progress.jokersEnabled !== false);
  const hide = checkbox('s-hide-streaks', progress.hideStreaks === true);
  const error = el('p', { class: 'error', id: 's-error', role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', id: 's-save' }, t('action.save'));
  // novalidate: the server's message (in the person's language) says what is out of bounds.
  const form = el('form', { class: 'card form', id: 's-progress', novalidate: true, 'aria-labelledby': 's-progress-title' },
    el('h2', { id: 's-progress-title' }, t('settings.progressTitle')),
    el('div', { class: 'form-grid' },
      field('s-time-zone', t('settings.timeZone'), zone),
      field('s-day-start', t('settings.dayStart'), dayStart),
      field('s-goal-mindfulness', t('settings.goal.mindfulness'), goal('s-goal-mindfulness', 'progress.mindfulnessGoal', goals.mindfulness)),
      field('s-goal-workout', t('settings.goal.workout'), goal('s-goal-workout', 'progress.workoutGoal', goals.workout))),
    el('label', { class: 'check', for: 's-jokers' }, jokers, el('span', {}, t('settings.jokers'))),
    el('label', { class: 'check', for: 's-hide-streaks' }, hide, el('span', {}, t('settings.hideStreaks'))),
    error,
    el('div', { class: 'actions' }, save));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    const body = {
      progress: {
        timeZoneIdentifier: zone.value || null,
        dayStartHour: Number(dayStart.value),
        jokersEnabled: jokers.checked,
        hideStreaks: hide.checked,
        goals: {
          mindfulness: Number(form.querySelector('#s-goal-mindfulness').value),
          workout: Number(form.querySelector('#s-goal-workout').value),
        },
      },
    };
    try {
      await api('/settings', { method: 'PATCH', body });
      announce(t('settings.progressSaved'));
      await render();
      root.querySelector('#s-save')?.focus();
    } catch (failure) {
      error.textContent = errorText(failure);
      error.hidden = false;
    }
  });
  return form;
}

function accessCard() {
  const button = el('button', { type: 'button', class: 'secondary', id: 's-sign-out' }, t('settings.signOut'));
  button.addEventListener('click', async () => {
    try {
      await fetch('/logout', { method: 'POST', credentials: 'same-origin' });
    } finally {
      location.assign('/login.html');
    }
  });
  return el('div', { class: 'card form', 'aria-labelledby': 's-access-title', role: 'group' },
    el('h2', { id: 's-access-title' }, t('settings.access')),
    el('p', { class: 'muted' }, t('settings.signedIn')),
    el('div', { class: 'actions' }, button));
}
