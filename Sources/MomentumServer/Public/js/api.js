// A thin fetch wrapper for /api/v1: JSON in and out; errors become ApiError with the server's code.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(path, { method = 'GET', body } = {}) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
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
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || 'unknown', e.message || response.statusText);
  }
  return data;
}
