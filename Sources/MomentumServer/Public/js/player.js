// Plays a practice run (a sit, a breathing session, a workout) through one <audio> element that
// streams the run's whole timeline from the server (GET /api/v1/runs/{id}/audio): the countdown,
// the ambient bed, every cue at its exact sample and the end. A media element keeps playing
// behind a locked phone screen, where Web Audio and the page's timers are suspended, so the
// gongs are in the sound itself and cannot drift from it. The element's position *is* the
// timeline's elapsed time: the pages draw their ring, phase and title from `elapsedMs()`.
//
// Also here, because every run needs them: Media Session (the lock screen's title, artwork,
// play/pause/stop and progress), the "Keep the screen on" switch (Screen Wake Lock), the one tap
// a phone may need before it plays sound, the stalls of the stream (noted, told after the
// practice, kept with the log), and a bed from the person's own library, which loops on a
// second element under the run's sound.
//
// window.momentumPlayer exposes the state, for tests.
import { t } from './i18n.js';
import { el } from './dom.js';
import { register as registerSound, claim as claimSound, release as releaseSound } from './sound-focus.js';
import { localSound } from './local-runs.js';

/** The "Keep the screen on" choice, per browser. */
const KEEP_SCREEN_KEY = 'momentum.keepScreenOn';
/** A silent WAV (one sample), played inside the first tap so the element may play later on iOS. */
const SILENCE = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAIlYAAESsAAACABAAZGF0YQIAAAAAAA==';

/** The silent WAV as a blob: URL (the page's Content-Security-Policy allows blob: media). */
function silence() {
  const bytes = Uint8Array.from(atob(SILENCE), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: 'audio/wav' }));
}

export const state = {
  state: 'idle', // idle | running | paused | stopped
  runID: null,
  src: null,
  timeline: null,
  /** True while the browser refused to start the sound without a tap (autoplay policy). */
  needsTap: false,
  /** Interruptions of the sound: { atMs (timeline offset), durationMs }. */
  stalls: [],
  stalling: false,
  ambient: null,
  ambientPausedBy: null,
  wakeLock: 'off', // off | held | unsupported | refused
};
window.momentumPlayer = state;

let media = null;
let bedMedia = null;
let unlocked = false;
/** The clock before the element plays: the server's elapsed time at `performance.now()` `at`. */
let estimate = { elapsedMs: 0, at: 0 };
let playedSinceSource = false;
let stallStart = null;
let controls = null;
let metadata = null;
const listeners = new Set();

function element() {
  if (media) return media;
  media = el('audio', { id: 'run-audio', preload: 'auto', 'aria-hidden': 'true' });
  media.hidden = true;
  document.body.append(media);
  media.addEventListener('playing', () => {
    playedSinceSource = true;
    endStall();
    state.needsTap = false;
    changed();
  });
  media.addEventListener('waiting', () => beginStall());
  media.addEventListener('stalled', () => { if (media.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) beginStall(); });
  media.addEventListener('timeupdate', () => {
    if (state.stalling && !media.paused && media.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) endStall();
    updatePosition();
  });
  media.addEventListener('ended', () => {
    if (state.state === 'stopped') clearSource();
  });
  return media;
}

/** The sound stopped while it should play: note where and since when. */
function beginStall() {
  if (state.state !== 'running' || !playedSinceSource || media.seeking || state.stalling) return;
  state.stalling = true;
  stallStart = { atMs: Math.round(media.currentTime * 1000), since: performance.now() };
}

function endStall() {
  if (!state.stalling || !stallStart) return;
  state.stalling = false;
  const durationMs = Math.round(performance.now() - stallStart.since);
  state.stalls.push({ atMs: stallStart.atMs, durationMs });
  stallStart = null;
}

function changed() {
  for (const listener of listeners) {
    try { listener(state); } catch (error) { console.error(error); }
  }
  updateSession();
}

/** Calls `listener(state)` whenever the player's state changes; answers a function to stop. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function sourceURL(runID, ms) {
  // A practice played on this device plays the sound kept for it (its bed is part of it).
  const kept = localSound(runID);
  if (kept) return `${kept}#t=${(ms / 1000).toFixed(3)}`;
  const bedOff = state.ambientPausedBy && !state.ambient?.src ? '?bed=off' : '';
  return `/api/v1/runs/${encodeURIComponent(runID)}/audio${bedOff}#t=${(ms / 1000).toFixed(3)}`;
}

function setSource(ms) {
  const audio = element();
  playedSinceSource = false;
  state.src = sourceURL(state.runID, ms);
  audio.src = state.src;
  // The fragment asks for the start position; this holds it where a browser ignores it.
  const seek = () => {
    if (Math.abs(audio.currentTime * 1000 - ms) > 250) audio.currentTime = ms / 1000;
  };
  if (audio.readyState >= HTMLMediaElement.HAVE_METADATA) seek();
  else audio.addEventListener('loadedmetadata', seek, { once: true });
}

function clearSource() {
  if (!media) return;
  media.pause();
  media.removeAttribute('src');
  media.load();
  state.src = null;
}

/** Starts the element; a refusal (no tap yet) shows the tap button, the clock goes on. */
function start() {
  const audio = element();
  const attempt = audio.play();
  if (!attempt) return;
  attempt.then(() => { state.needsTap = false; changed(); }).catch((error) => {
    if (error && error.name === 'NotAllowedError') {
      state.needsTap = true;
      changed();
    } else if (error && error.name !== 'AbortError') {
      console.warn(error);
    }
  });
  startBed();
}

/**
 * Lets the element play later: call synchronously inside a click or submit handler, before any
 * await (iOS lets an element play only once a tap has played it).
 */
export function unlock() {
  const audio = element();
  if (unlocked || state.state === 'running') return;
  unlocked = true;
  if (audio.src) return;
  const url = silence();
  audio.src = url;
  audio.play().catch(() => { unlocked = false; }).finally(() => URL.revokeObjectURL(url));
}

/**
 * Plays run `runID` from `elapsedMs` into its `timeline`. `session` names it for the lock screen
 * ({ title, album }) and gives its buttons ({ play, pause, stop }); `ambient` is a bed from the
 * person's library ({ id, volume, src }) that loops under the run's sound.
 */
export function play(runID, timeline, elapsedMs = 0, session = {}) {
  take(runID, timeline, elapsedMs, session, 'running');
  start();
  holdWakeLock();
  changed();
}

/** Shows run `runID` paused at `elapsedMs` (after a reload) without sounding anything. */
export function showPaused(runID, timeline, elapsedMs, session = {}) {
  take(runID, timeline, elapsedMs, session, 'paused');
  if (state.ambient) state.ambient.state = 'paused';
  changed();
}

function take(runID, timeline, elapsedMs, session, status) {
  if (state.runID !== runID) state.stalls = [];
  state.runID = runID;
  state.timeline = timeline;
  state.state = status;
  state.stalling = false;
  state.needsTap = false;
  state.ambient = ambientOf(timeline, session.ambient);
  state.ambientPausedBy = null;
  metadata = session;
  controls = session.controls || null;
  estimate = { elapsedMs, at: performance.now() };
  setSource(elapsedMs);
  setupSession();
}

/** The person tapped to hear a run the browser would not start on its own: join the clock. */
export function tapToHear() {
  if (state.state !== 'running') return;
  const at = elapsedMs();
  setSource(at);
  start();
}

export function pause() {
  if (state.state !== 'running') return;
  const at = elapsedMs();
  endStall();
  element().pause();
  pauseBed();
  releaseSound('ambient');
  state.state = 'paused';
  estimate = { elapsedMs: at, at: performance.now() };
  releaseWakeLock();
  changed();
}

/** Resumes where the sound paused; call synchronously inside the click (no await before it). */
export function resume() {
  if (state.state !== 'paused' || !state.runID) return;
  state.state = 'running';
  const audio = element();
  if (!audio.src || state.needsTap) setSource(estimate.elapsedMs);
  estimate = { elapsedMs: estimate.elapsedMs, at: performance.now() };
  start();
  holdWakeLock();
  changed();
}

/**
 * Stops the run's sound. `ringOut`: the run reached its end, so the element plays on to the end
 * of the stream (the end gong ringing out) and then lets go.
 */
export function stop({ ringOut = false } = {}) {
  endStall();
  state.state = 'stopped';
  state.ambientPausedBy = null;
  if (!ringOut || !media || media.paused) clearSource();
  stopBed();
  releaseWakeLock();
  changed();
  if ('mediaSession' in navigator) navigator.mediaSession.playbackState = 'none';
}

/** The interruptions of the run's sound so far, for the server's stop. */
export function interruptions() {
  return state.stalls.map((s) => ({ atMs: s.atMs, durationMs: s.durationMs }));
}

/** Milliseconds into the timeline: the element's position once it plays, else the estimate. */
export function elapsedMs() {
  if (state.state === 'paused' || state.state === 'stopped') return estimate.elapsedMs;
  if (state.state !== 'running') return 0;
  const audio = media;
  if (audio && playedSinceSource && !state.needsTap) return Math.max(0, Math.round(audio.currentTime * 1000));
  return Math.max(0, Math.round(estimate.elapsedMs + performance.now() - estimate.at));
}

// The ambient bed. A built-in bed is part of the run's sound; while a guided meditation from
// the Library holds the sound (sound-focus.js), the page switches to the same stream without its
// bed (`?bed=off`), at the same position, and back when the person resumes the ambient sound.
// A bed from the person's library loops on an element of its own, at the plan's volume.
registerSound('ambient', { pause: (by) => pauseAmbient(by), isSounding: () => bedSounding() });

/** The run's bed: `own` or the timeline's (a bed with `src` is the person's own file). */
function ambientOf(timeline, own) {
  const a = own || (timeline && timeline.ambient);
  if (!a || a.id === 'silent' || !(a.volume > 0)) return null;
  return { id: a.id, volume: a.volume, ...(a.src ? { src: a.src } : {}), state: 'playing' };
}

function bedSounding() {
  return state.state === 'running' && !!state.ambient && state.ambient.state === 'playing';
}

function startBed() {
  const ambient = state.ambient;
  if (!ambient || state.ambientPausedBy) return;
  ambient.state = 'playing';
  claimSound('ambient');
  if (!ambient.src) return;
  if (!bedMedia) {
    bedMedia = el('audio', { id: 'run-bed', preload: 'auto', loop: '', 'aria-hidden': 'true' });
    bedMedia.hidden = true;
    document.body.append(bedMedia);
  }
  if (bedMedia.getAttribute('src') !== ambient.src) bedMedia.src = ambient.src;
  bedMedia.volume = Math.max(0, Math.min(1, ambient.volume));
  bedMedia.play().catch((error) => { if (error.name !== 'AbortError') console.warn(error); });
}

function pauseBed() {
  if (bedMedia) bedMedia.pause();
}

function stopBed() {
  if (bedMedia) {
    bedMedia.pause();
    bedMedia.removeAttribute('src');
    bedMedia.load();
  }
  if (state.ambient) state.ambient.state = 'stopped';
  releaseSound('ambient');
}

/** Pauses only the ambient bed (the practice and its cues go on), because `by` started sounding. */
export function pauseAmbient(by) {
  if (!bedSounding()) return;
  state.ambientPausedBy = by || 'other';
  state.ambient.state = 'paused';
  releaseSound('ambient');
  if (state.ambient.src) pauseBed();
  else switchSource();
  changed();
}

/** Starts the ambient bed again where the practice is; call from a tap. */
export function resumeAmbient() {
  if (state.state !== 'running' || !state.ambient || !state.ambientPausedBy) return;
  state.ambientPausedBy = null;
  if (state.ambient.src) startBed();
  else {
    state.ambient.state = 'playing';
    claimSound('ambient');
    switchSource();
  }
  changed();
}

/** The same run's stream with or without its bed, from where the sound is now. */
function switchSource() {
  const at = elapsedMs();
  estimate = { elapsedMs: at, at: performance.now() };
  setSource(at);
  if (state.state === 'running') element().play().catch(() => {});
}

// Media Session: the lock screen's title, artwork, buttons and progress (the web app's Live
// Activity). The pages give the title and the buttons; the position is the element's.
function setupSession() {
  if (!('mediaSession' in navigator)) return;
  const call = (name) => () => { if (controls && controls[name]) controls[name](); };
  const handlers = { play: call('play'), pause: call('pause'), stop: call('stop'), seekbackward: null, seekforward: null, seekto: null };
  for (const [action, handler] of Object.entries(handlers)) {
    try { navigator.mediaSession.setActionHandler(action, handler); } catch { /* unsupported action */ }
  }
  if (window.MediaMetadata) {
    navigator.mediaSession.metadata = new MediaMetadata({
      title: metadata?.title || t('app.name'),
      artist: t('app.name'),
      album: metadata?.album || '',
      // A PNG first: iOS's lock screen shows no SVG artwork.
      artwork: [{ src: '/icon-512.png', sizes: '512x512', type: 'image/png' }, { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' }],
    });
  }
}

function updateSession() {
  if (!('mediaSession' in navigator)) return;
  if (state.state === 'running') navigator.mediaSession.playbackState = 'playing';
  else if (state.state === 'paused') navigator.mediaSession.playbackState = 'paused';
  updatePosition();
}

function updatePosition() {
  if (!('mediaSession' in navigator) || !navigator.mediaSession.setPositionState || !state.timeline) return;
  if (state.state !== 'running' && state.state !== 'paused') return;
  const total = state.timeline.totalMs;
  const duration = total == null ? Infinity : total / 1000;
  const position = Math.min(elapsedMs() / 1000, Number.isFinite(duration) ? duration : Infinity);
  try {
    navigator.mediaSession.setPositionState({ duration, position, playbackRate: 1 });
    state.position = { duration: Number.isFinite(duration) ? duration : null, position };
  } catch { /* an open-ended duration where the browser wants a finite one */ }
}

// "Keep the screen on": the Screen Wake Lock API holds the screen on while a run plays, where the
// browser has it (Chrome, Edge, Safari 16.4+); the lock is given back on pause and stop, and taken
// again when the page comes back to the front (the browser releases it when the page is hidden).
let wakeLock = null;

export function keepScreenOn() {
  try { return window.localStorage.getItem(KEEP_SCREEN_KEY) === 'on'; } catch { return false; }
}

function setKeepScreenOn(on) {
  try { window.localStorage.setItem(KEEP_SCREEN_KEY, on ? 'on' : 'off'); } catch { /* private mode */ }
  if (on) holdWakeLock();
  else releaseWakeLock();
}

async function holdWakeLock() {
  if (!('wakeLock' in navigator)) { state.wakeLock = 'unsupported'; return; }
  if (!keepScreenOn() || state.state !== 'running' || wakeLock || document.visibilityState !== 'visible') return;
  try {
    wakeLock = await navigator.wakeLock.request('screen');
    state.wakeLock = 'held';
    wakeLock.addEventListener('release', () => { wakeLock = null; if (state.wakeLock === 'held') state.wakeLock = 'off'; });
  } catch {
    state.wakeLock = 'refused';
  }
}

function releaseWakeLock() {
  state.wakeLock = 'wakeLock' in navigator ? 'off' : 'unsupported';
  const lock = wakeLock;
  wakeLock = null;
  if (lock) lock.release().catch(() => {});
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') holdWakeLock();
});

/**
 * The controls every run's view shows under its buttons: the tap that starts the sound when the
 * browser waits for one (with why), and the "Keep the screen on" switch where the browser has
 * it. `prefix` makes the ids (`m` → `m-tap`, `m-keep-screen`).
 */
export function runExtras(prefix) {
  const tap = el('button', { type: 'button', class: 'primary', id: `${prefix}-tap`, 'aria-describedby': `${prefix}-tap-why`, hidden: '' }, t('player.tapForSound'));
  const why = el('p', { class: 'muted', id: `${prefix}-tap-why`, hidden: '' }, t('player.tapForSoundWhy'));
  tap.addEventListener('click', () => tapToHear());
  const show = () => { tap.hidden = !state.needsTap; why.hidden = !state.needsTap; };
  const stopListening = onChange(() => {
    if (!tap.isConnected) { stopListening(); return; }
    show();
  });
  show();
  const parts = [tap, why];
  if ('wakeLock' in navigator) {
    const box = el('input', { type: 'checkbox', id: `${prefix}-keep-screen`, ...(keepScreenOn() ? { checked: '' } : {}) });
    box.addEventListener('change', () => setKeepScreenOn(box.checked));
    parts.push(el('label', { class: 'check', for: `${prefix}-keep-screen` }, box, el('span', {}, t('player.keepScreenOn'))));
  }
  return el('div', { class: 'run-extras' }, ...parts);
}
