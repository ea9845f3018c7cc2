// Library: guided meditations — upload (streamed, one file after another, with progress), the
// list grouped by teacher, editing with teacher suggestions, deleting, ambient beds, and a
// player with ±15 s, a seek slider, a remembered position, Media Session controls and the log.
// The player is a sound source of sound-focus.js: it pauses a meditation's ambient sound when
// it starts, and says so when the ambient sound paused it.
// window.momentumLibrary exposes the player's state, for tests.
import { api, uploadWithProgress } from './api.js';
import { t, clock, locale, errorText, boundAttributes } from './i18n.js';
import { announce, el, confirmDialog, refocus } from './dom.js';
import { register as registerSound, claim as claimSound, release as releaseSound } from './sound-focus.js';

const SKIP_S = 15;
const SAVE_EVERY_MS = 5000;

let root = null;
let groups = [];
let editingID = null;
let uploads = []; // { key, file, percent, state: 'waiting'|'uploading'|'done'|'failed', message }
let uploading = false;
let statusText = '';

// The player: one <audio> element for the page, kept outside the view so re-renders never stop it.
const audio = new Audio();
audio.preload = 'metadata';
const player = { item: null, listenedMs: 0, pausedBy: null, lastPos: null, saveTimer: null, ending: false };
window.momentumLibrary = {
  get itemID() { return player.item && player.item.id; },
  get listenedMs() { return player.listenedMs; },
  get paused() { return audio.paused; },
  get currentTime() { return audio.currentTime; },
  get pausedBy() { return player.pausedBy; },
};

registerSound('guided', {
  isSounding: () => !audio.paused,
  pause: (by) => {
    player.pausedBy = by;
    audio.pause();
    renderPlayerState();
    announce(t('library.web.pausedByAmbient'));
  },
});

export async function mount(view) {
  root = view;
  setupAudio();
  await load();
  render();
}

/** Back on the tab: redraws only when the library changed meanwhile (focus and scroll stay). */
export async function show() {
  const before = JSON.stringify(groups);
  await load();
  if (JSON.stringify(groups) !== before) render();
}

export async function remount() {
  await load();
  render();
}

export function hide() { /* the player keeps playing in the background */ }

async function load() {
  const data = await api(`/library?locale=${encodeURIComponent(locale())}`);
  groups = data.groups || [];
  if (player.item) {
    const fresh = findItem(player.item.id);
    if (fresh) player.item = { ...fresh, positionMs: player.item.positionMs };
  }
}

function findItem(id) {
  for (const g of groups) for (const item of g.items) if (item.id === id) return item;
  return null;
}

// MARK: rendering

function render() {
  if (!root) return;
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.id : null;
  root.replaceChildren(
    el('h1', { id: 'h-library' }, t('nav.library')),
    renderPlayer(),
    el('p', { class: 'lib-status', id: 'lib-status', role: 'status' }, statusText),
    renderUpload(),
    ...renderGroups(),
  );
  renderPlayerState();
  if (focused) refocus(root, focused);
}

function renderUpload() {
  const input = el('input', {
    type: 'file', id: 'lib-file', class: 'visually-hidden', multiple: true,
    accept: '.mp3,.m4a,.wav,audio/mpeg,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav',
    'aria-describedby': 'lib-file-hint',
  });
  input.addEventListener('change', () => {
    const files = [...input.files];
    input.value = '';
    enqueue(files);
  });
  const list = el('ul', { class: 'lib-uploads', id: 'lib-uploads', 'aria-label': t('library.web.uploadsLabel') });
  for (const u of uploads) list.append(renderUploadRow(u));
  return el('section', { class: 'card lib-upload', 'aria-labelledby': 'lib-file-label' },
    el('label', { for: 'lib-file', id: 'lib-file-label', class: 'button primary file-button' }, t('library.web.add'), input),
    el('p', { class: 'muted', id: 'lib-file-hint' }, t('library.web.addHint')),
    uploads.length ? list : null,
  );
}

function renderUploadRow(u) {
  const row = el('li', { class: `lib-upload-row ${u.state}`, 'data-upload': u.key },
    el('span', { class: 'lib-upload-name' }, u.file.name));
  if (u.state === 'uploading' || u.state === 'waiting') {
    row.append(el('progress', { max: 100, value: u.percent, 'aria-label': t('library.web.uploadProgress', { file: u.file.name }) }));
  }
  if (u.message) row.append(el('span', { class: u.state === 'failed' ? 'error lib-upload-result' : 'muted lib-upload-result' }, u.message));
  return row;
}

function renderGroups() {
  if (!groups.length) return [el('p', { class: 'muted', id: 'lib-empty' }, t('library.web.empty'))];
  return groups.map((group, index) => {
    const headingID = `lib-group-${index}`;
    return el('section', { class: 'lib-group', 'aria-labelledby': headingID },
      el('h2', { id: headingID }, group.teacherLabel),
      el('ul', { class: 'lib-list' }, ...group.items.map((item) => renderItem(item))),
    );
  });
}

function renderItem(item) {
  if (item.id === editingID) return el('li', { class: 'lib-item editing', 'data-item': item.id }, renderEditForm(item));
  // The length in words from the server ("3 s", "25 min 12 s"), not a clock.
  const duration = item.lengthText;
  const meta = item.album ? t('library.web.meta', { duration, album: item.album }) : duration;
  const play = el('button', { type: 'button', class: 'primary icon-button', id: `lib-play-${item.id}`, 'aria-label': t('library.web.playItem', { name: item.name }) }, t('library.web.play'));
  play.addEventListener('click', () => openItem(item, true));
  const edit = el('button', { type: 'button', class: 'secondary', id: `lib-edit-${item.id}`, 'aria-label': t('library.web.editItem', { name: item.name }) }, t('action.edit'));
  edit.addEventListener('click', () => { editingID = item.id; render(); refocus(root, 'lib-edit-teacher'); });
  const del = el('button', { type: 'button', class: 'secondary danger', id: `lib-delete-${item.id}`, 'aria-label': t('library.web.deleteItem', { name: item.name }) }, t('action.delete'));
  del.addEventListener('click', () => remove(item).catch(showStatusError));
  return el('li', { class: 'lib-item', 'data-item': item.id },
    el('div', { class: 'lib-item-text' },
      el('p', { class: 'lib-name' }, item.name),
      el('p', { class: 'muted lib-meta' }, meta,
        item.isAmbientBed ? el('span', { class: 'badge' }, t('library.web.ambientBadge')) : null)),
    el('div', { class: 'actions' }, play, edit, del),
  );
}

function renderEditForm(item) {
  const teacher = el('input', { type: 'text', id: 'lib-edit-teacher', name: 'teacher', value: item.teacher || '', list: 'lib-teacher-suggestions', autocomplete: 'off', ...boundAttributes('library.teacher'), 'aria-describedby': 'lib-edit-teacher-original' });
  const name = el('input', { type: 'text', id: 'lib-edit-name', name: 'name', value: item.name, autocomplete: 'off', ...boundAttributes('library.name'), 'aria-describedby': 'lib-edit-name-original' });
  const suggestions = el('datalist', { id: 'lib-teacher-suggestions' });
  let asked = 0;
  teacher.addEventListener('input', () => {
    const q = teacher.value;
    const ticket = ++asked;
    setTimeout(async () => {
      if (ticket !== asked) return;
      try {
        const data = await api(`/library/suggestions?q=${encodeURIComponent(q)}&locale=${encodeURIComponent(locale())}`);
        if (ticket !== asked) return;
        suggestions.replaceChildren(...(data.suggestions || []).map((s) => el('option', { value: s })));
      } catch (error) { console.warn(error); }
    }, 150);
  });
  const ambient = el('input', { type: 'checkbox', id: 'lib-edit-ambient', name: 'ambient', ...(item.isAmbientBed ? { checked: '' } : {}) });
  const error = el('p', { class: 'error', id: 'lib-edit-error', role: 'alert', hidden: '' });
  const save = el('button', { type: 'submit', class: 'primary', id: 'lib-edit-save' }, t('action.save'));
  const restore = el('button', { type: 'button', class: 'secondary', id: 'lib-edit-restore' }, t('library.web.restore'));
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'lib-edit-cancel' }, t('action.cancel'));
  const form = el('form', { class: 'form', id: 'lib-edit-form', novalidate: true, 'aria-labelledby': 'lib-edit-heading' },
    el('h3', { id: 'lib-edit-heading' }, t('library.web.editHeading', { name: item.name })),
    el('div', { class: 'form-grid' },
      el('div', { class: 'field' },
        el('label', { for: 'lib-edit-teacher' }, t('library.web.teacher')), teacher, suggestions,
        el('span', { class: 'muted hint', id: 'lib-edit-teacher-original' }, t('library.web.original', { value: item.originalTeacher || t('library.unknownTeacher') }))),
      el('div', { class: 'field' },
        el('label', { for: 'lib-edit-name' }, t('library.web.name')), name,
        el('span', { class: 'muted hint', id: 'lib-edit-name-original' }, t('library.web.original', { value: item.originalName }))),
    ),
    el('label', { class: 'check', for: 'lib-edit-ambient' }, ambient, el('span', {}, t('library.web.ambientToggle'))),
    error,
    el('div', { class: 'actions' }, save, restore, cancel),
  );
  const submit = async (body) => {
    try {
      const saved = await api(`/library/${item.id}`, { method: 'PATCH', body });
      editingID = null;
      statusText = t('library.web.saved', { name: saved.name });
      await load();
      render();
      announce(statusText);
      refocus(root, `lib-edit-${item.id}`);
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit({ teacher: teacher.value.trim() === '' ? null : teacher.value, name: name.value.trim() === '' ? null : name.value, isAmbientBed: ambient.checked });
  });
  restore.addEventListener('click', () => submit({ teacher: null, name: null, isAmbientBed: ambient.checked }));
  cancel.addEventListener('click', () => { editingID = null; render(); refocus(root, `lib-edit-${item.id}`); });
  form.addEventListener('keydown', (event) => { if (event.key === 'Escape') cancel.click(); });
  return form;
}

function renderPlayer() {
  const item = player.item;
  const section = el('section', { class: 'card lib-player', id: 'lib-player', 'aria-label': t('library.web.player'), ...(item ? {} : { hidden: '' }) });
  if (!item) return section;
  const seek = el('input', { type: 'range', id: 'lib-seek', min: 0, max: Math.max(1, Math.round(item.durationMs)), step: 100, value: 0, 'aria-label': t('library.web.position') });
  seek.addEventListener('input', () => {
    audio.currentTime = Number(seek.value) / 1000;
    renderPlayerState();
  });
  const back = el('button', { type: 'button', class: 'secondary icon-button', id: 'lib-back', 'aria-label': t('library.web.back') }, '−15');
  const play = el('button', { type: 'button', class: 'primary lib-toggle', id: 'lib-toggle' }, t('library.web.play'));
  const forward = el('button', { type: 'button', class: 'secondary icon-button', id: 'lib-forward', 'aria-label': t('library.web.forward') }, '+15');
  const stop = el('button', { type: 'button', class: 'secondary', id: 'lib-stop' }, t('action.stop'));
  back.addEventListener('click', () => skip(-SKIP_S));
  forward.addEventListener('click', () => skip(SKIP_S));
  play.addEventListener('click', () => (audio.paused ? playAudio() : audio.pause()));
  stop.addEventListener('click', () => stopListening().catch(showStatusError));
  const by = [item.teacherLabel, item.album].filter(Boolean).join(' · ');
  section.append(
    el('h2', { id: 'lib-now-title' }, item.name),
    el('p', { class: 'muted lib-now-by' }, by),
    seek,
    el('p', { class: 'lib-times' },
      el('span', { id: 'lib-elapsed' }),
      el('span', { id: 'lib-remaining' })),
    el('div', { class: 'actions lib-controls' }, back, play, forward, stop),
    el('p', { class: 'muted', id: 'lib-player-note', role: 'status' }),
  );
  return section;
}

/** Updates the player's changing parts without a re-render (the slider keeps its focus). */
function renderPlayerState() {
  if (!root || !player.item) return;
  const durationMs = player.item.durationMs;
  const at = Math.min(durationMs, audio.currentTime * 1000);
  // The clocks count the length the card shows: the server rounds a recording's length to the
  // nearest second ("45 s" for 45.4 s), so the player starts at 00:45, not 00:46.
  const shownMs = Math.round(durationMs / 1000) * 1000;
  const shownAt = Math.min(shownMs, at);
  const seek = root.querySelector('#lib-seek');
  if (seek && document.activeElement !== seek) seek.value = String(Math.round(at));
  if (seek) seek.setAttribute('aria-valuetext', t('library.web.positionText', { elapsed: clock(shownAt), total: clock(shownMs) }));
  const elapsed = root.querySelector('#lib-elapsed');
  if (elapsed) elapsed.textContent = t('player.elapsed', { time: clock(shownAt) });
  const remaining = root.querySelector('#lib-remaining');
  if (remaining) remaining.textContent = t('player.remaining', { time: clock(shownMs - shownAt) });
  const toggle = root.querySelector('#lib-toggle');
  if (toggle) toggle.textContent = audio.paused ? t('library.web.play') : t('action.pause');
  const note = root.querySelector('#lib-player-note');
  const noteText = audio.paused && player.pausedBy === 'ambient' ? t('library.web.pausedByAmbient') : '';
  if (note && note.textContent !== noteText) note.textContent = noteText;
}

function showStatus(text) {
  statusText = text;
  const box = root && root.querySelector('#lib-status');
  if (box) box.textContent = text;
}

function showStatusError(error) {
  showStatus(errorText(error));
}

// MARK: uploading

function enqueue(files) {
  for (const file of files) uploads.push({ key: `${Date.now()}-${Math.random()}`, file, percent: 0, state: 'waiting', message: '' });
  render();
  if (!uploading) uploadNext().catch(console.error);
}

function updateUploadRow(u) {
  const row = root && root.querySelector(`[data-upload="${CSS.escape(u.key)}"]`);
  if (row) row.replaceWith(renderUploadRow(u));
}

async function uploadNext() {
  const next = uploads.find((u) => u.state === 'waiting');
  if (!next) {
    uploading = false;
    await load();
    render();
    return;
  }
  uploading = true;
  next.state = 'uploading';
  updateUploadRow(next);
  try {
    const answer = await send(next);
    next.state = 'done';
    next.percent = 100;
    next.message = answer.message;
  } catch (error) {
    next.state = 'failed';
    next.message = errorText(error);
  }
  updateUploadRow(next);
  announce(`${next.file.name}: ${next.message}`);
  await uploadNext();
}

/** Sends one file, its progress bar following. */
function send(upload) {
  const path = `/library/upload?name=${encodeURIComponent(upload.file.name)}&locale=${encodeURIComponent(locale())}`;
  return uploadWithProgress(path, upload.file, 'application/octet-stream', (percent) => {
    upload.percent = percent;
    const bar = root && root.querySelector(`[data-upload="${CSS.escape(upload.key)}"] progress`);
    if (bar) bar.value = percent;
  });
}

// MARK: editing and deleting

async function remove(item) {
  const yes = await confirmDialog(t('library.web.deleteConfirm', { name: item.name }), t('action.delete'), t('action.cancel'));
  if (!yes) return;
  if (player.item && player.item.id === item.id) {
    audio.pause();
    closePlayer();
  }
  await api(`/library/${item.id}`, { method: 'DELETE' });
  statusText = t('library.web.deleted', { name: item.name });
  await load();
  render();
  announce(statusText);
  refocus(root, null, '#lib-file');
}

// MARK: the player

function setupAudio() {
  if (audio.dataset.ready) return;
  audio.dataset.ready = '1';
  audio.addEventListener('play', () => {
    player.pausedBy = null;
    claimSound('guided');
    setupMediaSession();
    clearInterval(player.saveTimer);
    player.saveTimer = setInterval(() => savePosition().catch(console.warn), SAVE_EVERY_MS);
    renderPlayerState();
  });
  audio.addEventListener('pause', () => {
    releaseSound('guided');
    clearInterval(player.saveTimer);
    if ('mediaSession' in navigator) navigator.mediaSession.playbackState = 'paused';
    if (!audio.ended && !player.ending) savePosition().catch(console.warn);
    renderPlayerState();
  });
  audio.addEventListener('timeupdate', () => {
    // Only the time that actually played counts as listened: small steps forward, never a seek.
    const pos = audio.currentTime;
    if (player.lastPos !== null && !audio.seeking && !audio.paused) {
      const step = pos - player.lastPos;
      if (step > 0 && step < 2) player.listenedMs += step * 1000;
    }
    player.lastPos = pos;
    renderPlayerState();
    updatePositionState();
  });
  audio.addEventListener('seeking', () => { player.lastPos = null; });
  audio.addEventListener('seeked', () => { player.lastPos = audio.currentTime; renderPlayerState(); });
  audio.addEventListener('ended', () => finishListening().catch(showStatusError));
}

/** Opens `item` in the player at its remembered position; `autoplay` starts it. */
async function openItem(item, autoplay) {
  if (player.item && player.item.id !== item.id) await stopListening({ quiet: true });
  if (!player.item || player.item.id !== item.id) {
    player.item = { ...item };
    player.listenedMs = 0;
    player.lastPos = null;
    player.pausedBy = null;
    audio.src = `/api/v1/library/${encodeURIComponent(item.id)}/audio`;
    const start = (item.positionMs || 0) / 1000;
    await new Promise((resolve) => {
      const ready = () => { audio.removeEventListener('loadedmetadata', ready); resolve(); };
      audio.addEventListener('loadedmetadata', ready);
      audio.addEventListener('error', ready, { once: true });
      audio.load();
    });
    if (start > 0 && start < item.durationMs / 1000 - 0.5) audio.currentTime = start;
    player.lastPos = audio.currentTime;
    statusText = '';
    render();
  }
  if (autoplay) await playAudio();
  refocus(root, 'lib-toggle');
}

async function playAudio() {
  try {
    await audio.play();
  } catch (error) {
    console.warn(error);
  }
}

function skip(seconds) {
  if (!player.item) return;
  const end = player.item.durationMs / 1000;
  audio.currentTime = Math.max(0, Math.min(end, audio.currentTime + seconds));
  renderPlayerState();
}

async function savePosition() {
  if (!player.item) return;
  const positionMs = Math.round(audio.currentTime * 1000);
  player.item.positionMs = positionMs;
  await api(`/library/${player.item.id}/position`, { method: 'PUT', body: { positionMs } });
}

/** Posts what was listened to (not the position) and shows a calm word about the log. */
async function report(finished) {
  const item = player.item;
  const listenedMs = Math.round(player.listenedMs);
  player.listenedMs = 0;
  const answer = await api(`/library/${item.id}/listened`, { method: 'POST', body: { listenedMs, finished } });
  // The server says it in words ("Logged 12 min 30 s …"), never as a clock.
  return answer.text || '';
}

async function finishListening() {
  if (!player.item || player.ending) return;
  player.ending = true;
  try {
    const text = await report(true);
    player.item.positionMs = 0;
    closePlayer();
    statusText = text;
    await load();
    render();
    if (text) announce(text);
  } finally {
    player.ending = false;
  }
}

/** The Stop button: pauses, logs what was listened to if it counts, and closes the player. */
async function stopListening({ quiet = false } = {}) {
  if (!player.item || player.ending) return;
  player.ending = true;
  try {
    audio.pause();
    await savePosition().catch(console.warn);
    const text = await report(false);
    closePlayer();
    statusText = quiet ? '' : text;
    if (!quiet) {
      await load();
      render();
      if (text) announce(text);
    }
  } finally {
    player.ending = false;
  }
}

function closePlayer() {
  clearInterval(player.saveTimer);
  player.item = null;
  player.pausedBy = null;
  audio.removeAttribute('src');
  audio.load();
  releaseSound('guided');
  if ('mediaSession' in navigator) navigator.mediaSession.playbackState = 'none';
}

function setupMediaSession() {
  if (!('mediaSession' in navigator) || !player.item) return;
  const item = player.item;
  if (window.MediaMetadata) {
    navigator.mediaSession.metadata = new MediaMetadata({
      title: item.name,
      artist: item.teacherLabel,
      album: item.album || t('nav.library'),
      artwork: [{ src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' }],
    });
  }
  const handlers = {
    play: () => playAudio(),
    pause: () => audio.pause(),
    stop: () => stopListening().catch(showStatusError),
    seekbackward: (details) => skip(-((details && details.seekOffset) || SKIP_S)),
    seekforward: (details) => skip((details && details.seekOffset) || SKIP_S),
    seekto: (details) => {
      if (!details || typeof details.seekTime !== 'number') return;
      if (details.fastSeek && 'fastSeek' in audio) audio.fastSeek(details.seekTime);
      else audio.currentTime = details.seekTime;
      renderPlayerState();
    },
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try { navigator.mediaSession.setActionHandler(action, handler); } catch { /* unsupported action */ }
  }
  navigator.mediaSession.playbackState = 'playing';
  updatePositionState();
}

function updatePositionState() {
  if (!('mediaSession' in navigator) || !navigator.mediaSession.setPositionState || !player.item) return;
  const duration = player.item.durationMs / 1000;
  try {
    navigator.mediaSession.setPositionState({ duration, playbackRate: audio.playbackRate || 1, position: Math.min(duration, audio.currentTime) });
  } catch { /* a position the browser refuses is left out */ }
}
