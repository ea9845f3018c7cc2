// Caches the static files only (network first, cache as fallback); /api is never touched, nor the
// manifest (the server writes it, with the person's shortcuts only for a signed-in request).
// `/offline/audio/…` is answered from the sound the page kept for practising offline
// (js/offline-store.js), which outlives a new version of these files.
const CACHE = 'momentum-static-v20';
const OFFLINE_CACHE = 'momentum-offline-v1';
const FILES = [
  '/', '/index.html', '/theme.js', '/app.css', '/app.js', '/icon.svg', '/icon-512.png',
  '/js/api.js', '/js/i18n.js', '/js/dom.js', '/js/player.js', '/js/meditate.js', '/js/breathe.js',
  '/js/progress.js', '/js/settings.js', '/js/timers.js', '/js/workout.js', '/js/breathe-editor.js', '/js/timer-form.js',
  '/js/chart.js', '/js/progress-calendar.js', '/js/progress-glance.js', '/js/progress-year.js', '/js/progress-stats.js', '/js/progress-log.js',
  '/js/morse.js', '/js/morse-audio.js', '/js/morse-text.js', '/js/morse-overview.js', '/js/morse-settings.js',
  '/js/morse-intro.js', '/js/morse-training.js', '/js/morse-receive.js', '/js/morse-send.js', '/js/morse-results.js',
  '/js/morse-qso-setup.js', '/js/morse-qso.js', '/js/morse-course-intro.js', '/js/welcome.js', '/js/settings-reminders.js', '/js/reminder-notifier.js',
  '/js/reminder-notifications.js', '/js/live.js', '/js/together.js', '/js/library.js', '/js/sound-focus.js', '/js/settings-backup.js',
  '/js/runs.js', '/js/run-end.js',
  '/js/focus-end.js', '/js/about.js', '/js/settings-people.js', '/js/form-errors.js', '/js/push-subscription.js',
  '/js/progress-trackers.js', '/js/outbox.js', '/js/offline-store.js', '/js/settings-offline.js',
  '/js/local-runs.js', '/js/offline-practice.js', '/js/timer-intents.js',
  '/js/morse-keyer.js', '/js/morse-keys.js', '/js/morse-sidetone-worklet.js', '/js/settings-morse-key.js', '/js/morse-keying.js', '/js/morse-hands-free.js',
];

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE && k !== OFFLINE_CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/offline/audio/')) {
    event.respondWith(keptSound(url.pathname, event.request.headers.get('Range')));
    return;
  }
  if (url.pathname.startsWith('/api/') || url.pathname === '/metrics' || url.pathname === '/health') return;
  if (!FILES.includes(url.pathname)) return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request)),
  );
});

/**
 * A kept practice's sound: whole, or the byte range asked for (206, as Safari's `<audio>` needs);
 * 416 for a range outside it, 404 when nothing is kept there.
 */
async function keptSound(path, range) {
  const cache = await caches.open(OFFLINE_CACHE);
  const kept = await cache.match(path);
  if (!kept) return new Response('', { status: 404 });
  const type = kept.headers.get('Content-Type') || 'audio/flac';
  const sound = await kept.blob();
  const size = sound.size;
  if (!range) {
    return new Response(sound, { headers: { 'Content-Type': type, 'Content-Length': String(size), 'Accept-Ranges': 'bytes' } });
  }
  const bounds = byteRange(range, size);
  if (bounds === 'ignored') {
    return new Response(sound, { headers: { 'Content-Type': type, 'Content-Length': String(size), 'Accept-Ranges': 'bytes' } });
  }
  if (!bounds) return new Response('', { status: 416, headers: { 'Content-Range': `bytes */${size}` } });
  const [first, last] = bounds;
  return new Response(sound.slice(first, last + 1), {
    status: 206,
    headers: {
      'Content-Type': type, 'Content-Length': String(last - first + 1), 'Accept-Ranges': 'bytes',
      'Content-Range': `bytes ${first}-${last}/${size}`,
    },
  });
}

/**
 * `bytes=A-B`, `bytes=A-` or `bytes=-N` as [first, last] within `size` bytes; null when it cannot
 * be satisfied (416); 'ignored' for a header that is not one such range (several ranges, another
 * unit, B before A), which RFC 9110 answers with the whole file.
 */
function byteRange(header, size) {
  const match = /^bytes=([0-9]*)-([0-9]*)$/i.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return 'ignored';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix > 0 && size > 0 ? [Math.max(0, size - suffix), size - 1] : null;
  }
  const first = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < first) return 'ignored';
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return Number.isSafeInteger(first) && first < size ? [first, last] : null;
}

// Web Push (docs/notifications.md): every push shows a notification — browsers end the
// subscriptions of pushes that show nothing. The server sends the words in the person's language
// (`PushMessage`: title, body, tag, url, actions, timestamp, and a tracker question's `answer`
// path); a push that does not read still shows the app's name.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'Momentum';
  const options = {
    body: typeof message.body === 'string' ? message.body : '',
    tag: typeof message.tag === 'string' && message.tag ? message.tag : undefined,
    icon: '/icon-512.png',
    badge: '/icon.svg',
    data: { url: sameOriginPath(message.url), kind: message.kind },
    actions: Array.isArray(message.actions)
      ? message.actions.filter((a) => a && typeof a.action === 'string' && typeof a.title === 'string').slice(0, 2)
      : [],
  };
  if (Number.isFinite(message.timestamp)) options.timestamp = message.timestamp;
  const answer = answerPath(message.answer?.path);
  if (answer) options.data.answer = answer;
  event.waitUntil(self.registration.showNotification(title, options));
});

// Tapping a notification (or its "Start") opens the practice: an open window of the app is
// brought forward and sent there, else a new one opens. A tracker question's Yes or No is
// recorded here, with this device's own sign-in (its cookie), without opening the app; if that
// fails (signed out, no connection) the app opens on Progress, where the question waits. Where
// notifications have no actions (iOS), tapping opens Progress the same way.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const url = new URL(data.url || '/', self.location.origin).href;
  event.waitUntil((async () => {
    if ((event.action === 'yes' || event.action === 'no') && data.answer) {
      if (await recordAnswer(data.answer, event.action === 'yes')) return;
    }
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
    if (open) {
      await open.focus();
      if (open.url !== url && 'navigate' in open) await open.navigate(url).catch(() => {});
      return;
    }
    await self.clients.openWindow(url);
  })());
});

/** PUTs a tracker's answer; whether the server kept it. */
async function recordAnswer(path, answer) {
  try {
    const response = await fetch(path, {
      method: 'PUT', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ answer }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** A tracker answer's API path from a push, never anything else. */
function answerPath(path) {
  const pattern = /^\/api\/v1\/trackers\/[0-9a-f-]{36}\/days\/[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
  return typeof path === 'string' && pattern.test(path) ? path : undefined;
}

/** A path of this app (`/#meditate`) from a push's `url`, never another site. */
function sameOriginPath(url) {
  if (typeof url !== 'string' || !url.startsWith('/') || url.startsWith('//')) return '/';
  return url;
}
