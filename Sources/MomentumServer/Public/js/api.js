// A thin fetch wrapper for /api/v1: JSON in and out; errors become ApiError with the server's code.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The language the UI shows; the server writes its error messages in it (Accept-Language).
let requestLanguage = 'en';
export function setRequestLanguage(lang) { requestLanguage = lang; }

export async function api(path, { method = 'GET', body } = {}) {
  const headers = { Accept: 'application/json', 'Accept-Language': requestLanguage };
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
  // Off loopback the server wants an access token; the login page exchanges it for a cookie.
  if (response.status === 401) location.assign('/login.html');
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || 'unknown', e.message || response.statusText);
  }
  return data;
}
