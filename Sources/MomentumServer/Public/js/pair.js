// The pairing page (pair.html#7KQM-X3HD-R9WE): spends a one-time code made by `momentum pair` or
// Settings → People → "Add a device" (POST /pair) and so signs this browser in as its person. The
// code arrives in the address's fragment (never sent to a server) and is wiped from the address
// bar and the history at once. A refused code shows the server's sentence and a field for another.
import { loadCatalog, translate, t } from './i18n.js';

const form = document.getElementById('pair-form');
const field = document.getElementById('pair-code');
const entry = document.getElementById('pair-entry');
const status = document.getElementById('pair-status');
const error = document.getElementById('pair-error');
const done = document.getElementById('pair-done');
const open = document.getElementById('pair-open');
let opening = null; // the timer that opens the app after signing in
const lang = (navigator.language || 'en').toLowerCase().startsWith('de') ? 'de' : 'en';

/** A name for this device the owner recognises in Settings → People (from the user agent). */
function guessedDeviceName() {
  const agent = navigator.userAgent || '';
  if (/iPhone/.test(agent)) return 'iPhone';
  if (/iPad/.test(agent)) return 'iPad';
  if (/Android/.test(agent)) return t(/Mobile/.test(agent) ? 'pair.device.androidPhone' : 'pair.device.androidTablet');
  if (/Macintosh/.test(agent)) return 'Mac';
  if (/Windows/.test(agent)) return t('pair.device.windows');
  if (/Linux|CrOS/.test(agent)) return t('pair.device.linux');
  return t('pair.device.browser');
}

/** The code in the address's fragment, which leaves the address bar (and the history) at once. */
function codeFromAddress() {
  let code = '';
  try {
    code = decodeURIComponent(location.hash.replace(/^#/, '')).trim();
  } catch { /* not a code: the field asks for one */ }
  if (location.hash) history.replaceState(null, '', location.pathname);
  return code;
}

async function start() {
  const code = codeFromAddress();
  try {
    await loadCatalog(lang);
    translate();
  } catch { /* the English in the page stays */ }
  if (code) {
    field.value = code;
    await pair(code);
  } else {
    field.focus();
  }
}

// Another link opened in this tab while the page shows.
window.addEventListener('hashchange', () => {
  const code = codeFromAddress();
  if (!code) return;
  entry.hidden = false;
  done.hidden = true;
  field.value = code;
  pair(code);
});

async function pair(code) {
  clearTimeout(opening);
  error.hidden = true;
  field.removeAttribute('aria-invalid');
  status.textContent = t('pair.signingIn');
  let response;
  try {
    response = await fetch('/pair', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': lang },
      credentials: 'same-origin',
      body: JSON.stringify({ code, device: guessedDeviceName() }),
    });
  } catch {
    return refused(t('error.offline'));
  }
  const body = await response.json().catch(() => null);
  if (response.ok && body) {
    entry.hidden = true;
    status.textContent = t('pair.signedIn', { name: body.person });
    done.hidden = false;
    open.focus();
    opening = setTimeout(() => location.replace('/'), 2500);
    return;
  }
  const message = body && body.error && body.error.message;
  refused(response.status < 500 && message ? message : t('error.generic'));
}

function refused(text) {
  status.textContent = '';
  error.textContent = text;
  error.hidden = false;
  field.setAttribute('aria-invalid', 'true');
  field.focus();
  field.select();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const code = field.value.trim();
  if (!code) return refused(t('pair.empty'));
  pair(code);
});

start();
