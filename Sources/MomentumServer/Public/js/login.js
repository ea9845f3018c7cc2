// The login page. Off loopback it exchanges an access token for the session cookie (POST /login)
// and points to the pairing page; on the server's own screen (login.html#choose; GET /api/v1/profiles
// answers there only) it shows the household's people as big buttons: choosing one (with its PIN, when the owner
// locked it) starts a session as that person (POST /api/v1/profiles/choose). Either way the app
// opens where the person was. Texts come from the catalog; the page works in English before it loads.
import { loadCatalog, translate, t } from './i18n.js';
import { el, svg } from './dom.js';

const form = document.getElementById('login-form');
const field = document.getElementById('login-token');
const error = document.getElementById('login-error');
const profiles = document.getElementById('profiles');
const list = document.getElementById('profile-list');
const pinForm = document.getElementById('pin-form');
const pinField = document.getElementById('pin-field');
const pinLabel = document.getElementById('pin-label');
const profilesError = document.getElementById('profiles-error');
const pinError = document.getElementById('pin-error');
const lang = (navigator.language || 'en').toLowerCase().startsWith('de') ? 'de' : 'en';
const RETURN_KEY = 'momentum.returnTo';
let chosen = null;

async function start() {
  try {
    await loadCatalog(lang);
    translate();
  } catch { /* the English in the page stays */ }
  // The app sends the server's own screen here with #choose (api.js): the people to choose from.
  const people = location.hash === '#choose' ? await screenProfiles() : null;
  if (people) return showProfiles(people);
  field.focus();
}

/** The people to choose from on the server's own screen, or null elsewhere (404). */
async function screenProfiles() {
  try {
    const response = await fetch('/api/v1/profiles', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) return null;
    return (await response.json()).profiles;
  } catch {
    return null;
  }
}

/** Back to where the app was when it asked to sign in (api.js keeps its address). */
function openApp() {
  let back = '';
  try {
    back = sessionStorage.getItem(RETURN_KEY) || '';
    sessionStorage.removeItem(RETURN_KEY);
  } catch { /* storage refused: the app's start */ }
  location.replace(`/${back.startsWith('#') ? back : ''}`);
}

function lockIcon() {
  return svg('svg', { 'aria-hidden': 'true', viewBox: '0 0 24 24', class: 'lock-icon' },
    svg('rect', { x: 5, y: 11, width: 14, height: 10, rx: 2 }),
    svg('path', { d: 'M8 11V8a4 4 0 0 1 8 0v3' }));
}

function showProfiles(people) {
  form.hidden = true;
  profiles.hidden = false;
  document.title = `${t('login.chooseTitle')} – Momentum`;
  list.replaceChildren(...people.map((person) => {
    const button = el('button', {
      type: 'button', class: 'profile-button', id: `profile-${person.id}`,
      'aria-label': person.hasPIN ? t('login.profileLocked', { name: person.name }) : null,
    }, el('span', { class: 'profile-initial', 'aria-hidden': 'true' }, ([...person.name][0] || '?').toLocaleUpperCase()),
    el('span', { class: 'profile-name' }, person.name), person.hasPIN ? lockIcon() : null);
    button.addEventListener('click', () => (person.hasPIN ? askPIN(person) : choose(person)));
    return el('li', {}, button);
  }));
  list.querySelector('button')?.focus();
}

function askPIN(person) {
  chosen = person;
  hideError();
  for (const button of list.querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.id === `profile-${person.id}`));
  pinLabel.textContent = t('login.pinFor', { name: person.name });
  pinField.value = '';
  pinForm.hidden = false;
  pinField.focus();
}

pinForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!chosen) return;
  if (!pinField.value.trim()) return showProfilesError(t('login.pinEmpty'), pinField);
  choose(chosen, pinField.value.trim());
});

document.getElementById('pin-back').addEventListener('click', () => {
  const back = chosen && document.getElementById(`profile-${chosen.id}`);
  chosen = null;
  pinForm.hidden = true;
  hideError();
  for (const button of list.querySelectorAll('button')) button.removeAttribute('aria-pressed');
  back?.focus();
});

async function choose(person, pin) {
  hideError();
  let response;
  try {
    response = await fetch('/api/v1/profiles/choose', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': lang },
      credentials: 'same-origin',
      body: JSON.stringify(pin === undefined ? { id: person.id } : { id: person.id, pin }),
    });
  } catch {
    return showProfilesError(t('error.offline'));
  }
  if (response.ok) return openApp();
  const body = await response.json().catch(() => null);
  const message = body && body.error && body.error.message;
  showProfilesError(response.status < 500 && message ? message : t('error.generic'), pin === undefined ? null : pinField);
}

function showProfilesError(text, control = null) {
  // A refused PIN shows under its field; anything else under the list.
  const line = control ? pinError : profilesError;
  line.textContent = text;
  line.hidden = false;
  if (control) {
    control.setAttribute('aria-invalid', 'true');
    control.focus();
    control.select();
  }
}

function hideError() {
  profilesError.hidden = true;
  pinError.hidden = true;
  pinField.removeAttribute('aria-invalid');
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.hidden = true;
  const token = field.value.trim();
  if (!token) return showError(t('login.empty'));
  let response;
  try {
    response = await fetch('/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({ token }),
    });
  } catch {
    return showError(t('error.offline'));
  }
  if (response.ok) {
    openApp();
  } else if (response.status === 401) {
    showError(t('login.refused'));
    field.select();
  } else {
    showError(t('error.generic'));
  }
});

function showError(text) {
  error.textContent = text;
  error.hidden = false;
}

start();
