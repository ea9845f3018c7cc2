// The login page: exchanges an access token for the session cookie (POST /login), then opens the
// app. Texts come from the catalog like everywhere else; the page works in English before it loads.
import { loadCatalog, translate, t } from './i18n.js';

const form = document.getElementById('login-form');
const field = document.getElementById('login-token');
const error = document.getElementById('login-error');

async function start() {
  const lang = (navigator.language || 'en').toLowerCase().startsWith('de') ? 'de' : 'en';
  try {
    await loadCatalog(lang);
    translate();
  } catch { /* the English in the page stays */ }
  field.focus();
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
    location.replace('/');
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
