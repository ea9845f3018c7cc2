// Settings: the language (en/de), how progress is counted (time zone, day start, jokers, hiding
// streaks, daily goals), reminders (settings-reminders.js), backing up and restoring
// (settings-backup.js), the space kept for practising offline (settings-offline.js), this device's
// Morse key (settings-morse-key.js), the
// household's people (settings-people.js) and, for a browser signed in
// with a token or a pairing code, signing out — on the server's own screen, switching person. In a
// household of several, the header says whose practice this is. The theme follows the system. The server checks every value; its message shows under the form.
import { api } from './api.js';
import { t, language, boundAttributes, fieldBounds, browserLanguage } from './i18n.js';
import { el, field, announce } from './dom.js';
import { showRefusal, clearRefusals } from './form-errors.js';
import { remindersCard } from './settings-reminders.js';
import { backupCard } from './settings-backup.js';
import { offlineCard } from './settings-offline.js';
import { morseKeyCard } from './settings-morse-key.js';
import { peopleCard, isShared } from './settings-people.js';
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
  if (chosen && typeof chosen.value === 'string' && relocalizeTo(chosen.value)) return;
  // Changes were missed (the feed was down): a language chosen meanwhile is read from the server.
  if (refresh && !chosen) {
    api('/settings').then((settings) => {
      if (typeof settings.language === 'string') relocalizeTo(settings.language);
    }).catch(() => { /* out of reach again: the next refresh asks */ });
  }
  if (!chosen && !refresh && !changes.length) return;
  if (!root) return;
  if (root.hidden || !root.isConnected) {
    stale = true;
    return;
  }
  whenNotTyping(root, () => keepingInput(root, () => render()).catch(console.error));
});

/** Shows the page in `value` ('en', 'de' or 'auto') if that is not what it shows; true if it does. */
function relocalizeTo(value) {
  const lang = value === 'auto' ? browserLanguage() : value;
  if (lang === requestedLanguage || lang === language() || !window.momentumRelocalize) return false;
  window.momentumRelocalize(lang).catch(console.error);
  return true;
}

export async function mount(view) {
  root = view;
  await render();
}
export const remount = (view) => { root = view; return render(); };

async function render() {
  stale = false;
  const [settings, session, zones, people] = await Promise.all([
    api('/settings'),
    api('/session').catch(() => ({ canSignOut: false })),
    api(`/time-zones?lang=${encodeURIComponent(language())}`).catch(() => null),
    api('/people').catch(() => null),
  ]);
  const shared = session.access === 'profile' || (people && isShared(people));
  // replaceChildren would show a null as the text "null".
  root.replaceChildren(...[
    el('h1', { id: 'h-settings' }, t('nav.settings')),
    shared && session.person ? el('p', { class: 'muted who', id: 's-who' }, t('people.signedInAs', { name: session.person.name })) : null,
    languageCard(),
    progressForm(settings.progress || {}, zones),
    remindersCard(settings.reminders || {}, { saved: remindersSaved, session }),
    backupCard(),
    offlineCard(),
    morseKeyCard(),
    people ? peopleCard(people, session, peopleChanged) : null,
    session.canSignOut ? accessCard(session) : null,
    el('p', { class: 'about-link' }, el('a', { href: '#about', id: 's-about' }, t('about.link'))),
  ].filter(Boolean));
}

async function peopleChanged(focusId) {
  await render();
  const target = (focusId && root.querySelector(`#${CSS.escape(focusId)}`)) || root.querySelector('#p-title');
  if (target) {
    // A control inside a person's closed "Change …" shows again opened.
    const details = target.closest('details');
    if (details) details.open = true;
    if (target.tagName === 'H2') target.setAttribute('tabindex', '-1');
    target.focus();
  }
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
  // The theme is this device's (theme.js keeps it in this browser): a phone may be dark at
  // night while the desktop stays light.
  const theme = el('select', { id: 's-theme', name: 'theme', 'aria-describedby': 's-theme-hint' },
    ...window.momentumTheme.choices.map((choice) => el('option', { value: choice, ...(choice === window.momentumTheme.chosen() ? { selected: '' } : {}) }, t(`settings.themeChoice.${choice}`))));
  theme.addEventListener('change', () => {
    window.momentumTheme.choose(theme.value);
    announce(t('settings.themeSaved'));
  });
  return el('div', { class: 'card form' },
    field('s-language', t('settings.language'), select),
    field('s-theme', t('settings.themeLabel'), theme),
    el('p', { class: 'muted', id: 's-theme-hint' }, t('settings.theme')));
}

/**
 * The time zone: a search box over a list grouped by region, both from the server
 * (GET /time-zones: the regions named in the page's language, "automatic" first). Typing
 * narrows the list ("Berl" leaves Europe → Berlin) and chooses the first zone that matches.
 */
function timeZonePicker(current, zones) {
  const select = el('select', { id: 's-time-zone', name: 'timeZone' });
  const search = el('input', {
    type: 'search', id: 's-time-zone-search', 'aria-label': t('settings.timeZone.search'), placeholder: t('settings.timeZone.search'),
    spellcheck: 'false', 'aria-controls': 's-time-zone', 'aria-describedby': 's-time-zone-hint s-time-zone-status',
  });
  const status = el('p', { class: 'muted', id: 's-time-zone-status', role: 'status' });
  const regions = (zones && zones.regions) || [];
  const known = new Set(regions.flatMap((region) => region.zones.map((zone) => zone.id)));
  const automatic = (zones && zones.automaticText) || t('settings.timeZone.auto');
  const fold = (text) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replaceAll('_', ' ').toLowerCase();
  let chosen = current || '';
  const draw = () => {
    const wanted = fold(search.value.trim());
    const matches = (region, zone) => !wanted || [zone.id, zone.name, region.name].some((text) => fold(text).includes(wanted));
    const groups = [];
    for (const region of regions) {
      const shown = region.zones.filter((zone) => matches(region, zone));
      if (!shown.length) continue;
      groups.push(el('optgroup', { label: region.name },
        ...shown.map((zone) => el('option', { value: zone.id, ...(zone.id === chosen ? { selected: '' } : {}) }, zone.name))));
    }
    const extra = chosen && !known.has(chosen) && !wanted ? [el('option', { value: chosen, selected: '' }, chosen)] : [];
    select.replaceChildren(el('option', { value: '', ...(chosen ? {} : { selected: '' }) }, automatic), ...extra, ...groups);
    const firstMatch = groups[0]?.querySelector('option');
    if (wanted && firstMatch && ![...select.options].some((option) => option.value === chosen && option.value)) {
      select.value = firstMatch.value;
      chosen = firstMatch.value;
    }
    status.textContent = wanted && !groups.length ? t('settings.timeZone.noMatch', { text: search.value.trim() }) : '';
  };
  select.addEventListener('change', () => { chosen = select.value; });
  search.addEventListener('input', draw);
  draw();
  const picker = el('div', { class: 'field time-zone-field' },
    el('label', { for: 's-time-zone' }, t('settings.timeZone')),
    search,
    select,
    el('p', { class: 'muted', id: 's-time-zone-hint' }, t('settings.timeZone.searchHint')),
    status);
  return { picker, select };
}

function checkbox(id, checked) {
  return el('input', { type: 'checkbox', id, name: id, ...(checked ? { checked: '' } : {}) });
}

const GOALS = ['mindfulness', 'workout', 'focus'];

function progressForm(progress, zones) {
  const { picker, select: zone } = timeZonePicker(progress.timeZoneIdentifier, zones);
  const dayStart = el('select', { id: 's-day-start', name: 'dayStartHour' });
  const hours = fieldBounds('progress.dayStartHour');
  for (let hour = hours.min; hour <= hours.max; hour += hours.step || 1) {
    dayStart.append(el('option', { value: hour, ...(hour === (progress.dayStartHour ?? hours.default) ? { selected: '' } : {}) },
      `${String(hour).padStart(2, '0')}:00`));
  }
  const goals = progress.goals || {};
  const goal = (category) => {
    const id = `s-goal-${category}`;
    const bounds = `progress.${category}Goal`;
    return field(id, t(`settings.goal.${category}`), el('input', {
      type: 'number', id, name: id, ...boundAttributes(bounds), value: goals[category] ?? fieldBounds(bounds).default, inputmode: 'numeric',
    }));
  };
  const jokers = checkbox('s-jokers', progress.jokersEnabled !== false);
  const hide = checkbox('s-hide-streaks', progress.hideStreaks === true);
  const error = el('p', { class: 'error', id: 's-error', role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', class: 'primary', id: 's-save' }, t('action.save'));
  // novalidate: the server's message (in the person's language) says what is out of bounds, next
  // to the field it is about.
  const form = el('form', { class: 'card form', id: 's-progress', novalidate: true, 'aria-labelledby': 's-progress-title' },
    el('h2', { id: 's-progress-title' }, t('settings.progressTitle')),
    picker,
    el('div', { class: 'form-grid' },
      field('s-day-start', t('settings.dayStart'), dayStart),
      ...GOALS.map(goal)),
    el('label', { class: 'check', for: 's-jokers' }, jokers, el('span', {}, t('settings.jokers'))),
    el('label', { class: 'check', for: 's-hide-streaks' }, hide, el('span', {}, t('settings.hideStreaks'))),
    error,
    el('div', { class: 'actions' }, save));
  // The body's paths (progress.goals.focus …) and the controls they name.
  const controlFor = (path) => {
    if (path === 'progress.timeZoneIdentifier') return zone;
    if (path === 'progress.dayStartHour') return dayStart;
    const goalMatch = path.match(/^progress\.goals\.(\w+)$/);
    return goalMatch ? form.querySelector(`#s-goal-${goalMatch[1]}`) : null;
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearRefusals(form, error);
    const body = {
      progress: {
        timeZoneIdentifier: zone.value || null,
        dayStartHour: Number(dayStart.value),
        jokersEnabled: jokers.checked,
        hideStreaks: hide.checked,
        goals: Object.fromEntries(GOALS.map((category) => [category, Number(form.querySelector(`#s-goal-${category}`).value)])),
      },
    };
    try {
      await api('/settings', { method: 'PATCH', body });
      announce(t('settings.progressSaved'));
      await render();
      root.querySelector('#s-save')?.focus();
    } catch (failure) {
      showRefusal(form, failure, controlFor, error);
    }
  });
  return form;
}

/**
 * Signing out ends this browser's session. On the server's own screen (a profile chosen there) it
 * is "Switch person": back to the picker.
 */
function accessCard(session) {
  const onScreen = session.access === 'profile';
  const button = el('button', { type: 'button', class: 'secondary', id: 's-sign-out' },
    t(onScreen ? 'people.switch' : 'settings.signOut'));
  button.addEventListener('click', async () => {
    try {
      await fetch('/logout', { method: 'POST', credentials: 'same-origin' });
    } finally {
      location.assign(onScreen ? '/login.html#choose' : '/login.html');
    }
  });
  return el('div', { class: 'card form', 'aria-labelledby': 's-access-title', role: 'group' },
    el('h2', { id: 's-access-title' }, t('settings.access')),
    el('p', { class: 'muted' }, onScreen ? t('people.switchHint', { name: session.person ? session.person.name : '' }) : t('settings.signedIn')),
    el('div', { class: 'actions' }, button));
}
