// A thin fetch wrapper for /api/v1: JSON in and out; errors become ApiError with the server's code
// (and, for a refused body, `field`: the path of the value at fault, e.g. `progress.goals.focus`).
/** A version-4 UUID: `crypto.randomUUID` only exists on HTTPS, and a home server may be plain HTTP. */
export const newID = () => (crypto.randomUUID ? crypto.randomUUID()
  : '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) =>
    (c ^ (crypto.getRandomValues(new Uint8Array(1))[0] & (15 >> (c / 4)))).toString(16)));

export class ApiError extends Error {
  constructor(status, code, message, field = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

// The language the UI shows; the server writes its error messages in it (Accept-Language).
let requestLanguage = 'en';
export function setRequestLanguage(lang) { requestLanguage = lang; }

// This browser's name ("Anna's phone"), kept in this browser only: every request carries it in
// X-Momentum-Device (percent-encoded), and the server stamps the changes it makes with it, so
// "changed by" on the other devices names it. Without a name the header is left out.
const DEVICE_KEY = 'momentum.deviceName';
let deviceName = storedDeviceName();
function storedDeviceName() {
  try { return localStorage.getItem(DEVICE_KEY) || null; } catch { return null; }
}
window.addEventListener('storage', (event) => { if (event.key === DEVICE_KEY) deviceName = event.newValue || null; });

/** This browser's name, or null. */
export function thisDeviceName() { return deviceName; }

/** Keeps `name` (as the server answered it from GET /device) as this browser's name; null forgets it. */
export function setThisDeviceName(name) {
  deviceName = name || null;
  try {
    if (deviceName) localStorage.setItem(DEVICE_KEY, deviceName);
    else localStorage.removeItem(DEVICE_KEY);
  } catch { /* storage refused: the name lasts as long as the page */ }
}

const deviceHeaders = (name) => (name ? { 'X-Momentum-Device': encodeURIComponent(name) } : {});

/**
 * `device`: a name to send instead of this browser's (GET /device checks a new one before it is
 * kept). A kept name the server no longer takes is forgotten and the request sent again without.
 */
export async function api(path, { method = 'GET', body, device } = {}) {
  const name = device === undefined ? deviceName : device;
  try {
    return await request(path, method, body, name);
  } catch (error) {
    if (device !== undefined || !name || error.code !== 'invalid_device_name') throw error;
    setThisDeviceName(null);
    return request(path, method, body, null);
  }
}

async function request(path, method, body, name) {
  const headers = { Accept: 'application/json', 'Accept-Language': requestLanguage, ...deviceHeaders(name) };
  const init = { method, headers, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(`/api/v1${path}`, init);
  } catch (error) {
    throw new ApiError(0, 'network', String(error));
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  // Off loopback the server wants an access token (the login page exchanges it for a cookie); on
  // the server's own screen, in a household of several, it wants a profile chosen there.
  if (response.status === 401) toLogin(data);
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || 'unknown', e.message || response.statusText, e.field || null);
  }
  return data;
}

const RETURN_KEY = 'momentum.returnTo';

/**
 * Sends the page to sign in — to the profile picker when the server asks to choose a person
 * (`choose_person`) — and keeps where it was, so the login page opens the app there again.
 */
export function toLogin(answer) {
  if (location.pathname === '/login.html') return;
  try { sessionStorage.setItem(RETURN_KEY, location.hash); } catch { /* the app's start then */ }
  const choose = answer && answer.error && answer.error.code === 'choose_person';
  location.assign(choose ? '/login.html#choose' : '/login.html');
}

/**
 * POSTs `file` as the raw body to `/api/v1${path}` (the browser streams it from disk) and calls
 * `onProgress(percent)` as it goes and `onSent()` once every byte is out (the server is then
 * checking it). Answers the JSON body; refuses as `api` does: an ApiError with the server's code
 * and message (status 0, code `network`, when the server cannot be reached); 401 → login page.
 */
export function uploadWithProgress(path, file, contentType, onProgress = () => {}, onSent = () => {}) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/v1${path}`);
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('Accept-Language', requestLanguage);
    if (deviceName) request.setRequestHeader('X-Momentum-Device', encodeURIComponent(deviceName));
    request.setRequestHeader('Content-Type', contentType);
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.upload.addEventListener('load', () => onSent());
    request.addEventListener('load', () => {
      const body = request.response || {};
      if (request.status === 401) toLogin(body);
      if (request.status >= 200 && request.status < 300) {
        resolve(body);
      } else {
        const e = body.error || {};
        reject(new ApiError(request.status, e.code || 'unknown', e.message || request.statusText));
      }
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'network', 'network')));
    request.send(file);
  });
}
