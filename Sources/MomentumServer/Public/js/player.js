// Plays a timeline's cues with Web Audio: each cue sound is fetched and decoded once, and every
// cue is scheduled ahead on the AudioContext clock, so a background tab stays on time.
// window.momentumPlayer exposes what is scheduled, for tests.
import { register as registerSound, claim as claimSound, release as releaseSound } from './sound-focus.js';

const buffers = new Map();
const LATE_TOLERANCE_S = 3;
let context = null;
let sources = [];
/** Audio-clock time that corresponds to timeline offset 0 (moves on pause/resume). */
let origin = 0;
let pausedAtMs = null;

export const state = { scheduled: [], state: 'idle' };
window.momentumPlayer = state;

function audioContext() {
  if (!context) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
    // A context the browser kept suspended (no gesture yet, e.g. after a reload) starts later:
    // then the cues still ahead are put on its clock.
    context.addEventListener('statechange', () => {
      state.contextState = context.state;
      if (context.state === 'running' && state.state === 'running' && state.timeline && !onAudioClock) {
        const at = elapsedMs();
        play(state.timeline, at);
      }
    });
  }
  return context;
}

/** Whether `origin` is on the audio clock (true) or on performance.now() (context not running). */
let onAudioClock = false;

function now() {
  return onAudioClock ? context.currentTime : performance.now() / 1000;
}

async function buffer(sound, url = `/api/v1/sounds/${encodeURIComponent(sound)}.wav`) {
  if (buffers.has(sound)) return buffers.get(sound);
  const promise = fetch(url)
    .then((r) => {
      if (!r.ok) throw new Error(`cue ${sound}: ${r.status}`);
      return r.arrayBuffer();
    })
    .then((bytes) => audioContext().decodeAudioData(bytes));
  buffers.set(sound, promise);
  return promise;
}

/** Fetches and decodes cue sounds ahead of a start, so the first gong is on time. */
export function preload(sounds) {
  if (!audioContext()) return;
  for (const sound of sounds) buffer(sound).catch(() => buffers.delete(sound));
}

/** Every cue with a sound, in order, as the core lists it (repeating cues already expanded). */
export function cueList(timeline) {
  return (timeline.scheduledCues || []).map((c) => ({ sound: c.sound, offsetMs: c.offsetMs }));
}

function clearSources() {
  for (const s of sources) {
    try { s.stop(); } catch { /* already ended */ }
  }
  sources = [];
  state.queued = 0;
}

// The ambient bed: the server's seamless loop of the chosen sound, looped under the practice
// through a gain that fades with the same raised cosine as the renderer and the terminal —
// in at the start and on resume, out on pause, on stop and after the timeline's end.
// A bed from the person's library (`ambient.src`, e.g. /api/v1/library/{id}/audio) is streamed
// by a looping <audio> element through the same gain, instead of being decoded whole.
// The bed is one of the sound sources of sound-focus.js: a guided meditation starting pauses
// it (state.ambientPausedBy says why) and it starting pauses the guided meditation.
let bed = null; // { gain, stop(atContextTime) }
state.ambient = null;
state.ambientPausedBy = null;
registerSound('ambient', { pause: (by) => pauseAmbient(by), isSounding: () => !!bed });

function ambientOf(timeline) {
  const a = timeline && timeline.ambient;
  return a && a.id !== 'silent' && a.volume > 0 ? a : null;
}

/** `count` points of a raised-cosine fade from `from` to `to`, for setValueCurveAtTime. */
function fadeCurve(from, to, count = 64) {
  const curve = new Float32Array(count);
  for (let k = 0; k < count; k++) {
    const shape = 0.5 - 0.5 * Math.cos((Math.PI * k) / (count - 1));
    curve[k] = from + (to - from) * shape;
  }
  return curve;
}

/** Fades the running bed out from now and lets it go. */
function releaseBed(fadeMs) {
  if (!bed) return;
  const { gain } = bed;
  const stopBed = bed.stop;
  bed = null;
  releaseSound('ambient');
  const t0 = context.currentTime;
  const g = gain.gain;
  // Hold the gain where it is (a fade in may be under way), then fade from there.
  if (g.cancelAndHoldAtTime) g.cancelAndHoldAtTime(t0);
  else g.cancelScheduledValues(t0);
  try {
    g.setValueCurveAtTime(fadeCurve(g.value, 0), t0 + 0.005, fadeMs / 1000);
  } catch {
    g.setTargetAtTime(0, t0, fadeMs / 4000);
  }
  stopBed(t0 + fadeMs / 1000 + 0.05);
  if (state.ambient) state.ambient.state = 'fadingOut';
}

/** A looping source of `ambient`: the decoded built-in loop, or the library file streamed. */
async function bedSource(ambient) {
  if (ambient.src) {
    const media = new Audio();
    media.src = ambient.src;
    media.loop = true;
    media.preload = 'auto';
    const node = context.createMediaElementSource(media);
    return {
      node,
      start: () => media.play().catch((error) => console.warn(error)),
      stop: (at) => {
        const delay = Math.max(0, (at - context.currentTime) * 1000);
        setTimeout(() => { media.pause(); media.removeAttribute('src'); media.load(); }, delay);
      },
    };
  }
  const data = await buffer(`ambient:${ambient.id}`, `/api/v1/sounds/ambient/${encodeURIComponent(ambient.id)}.wav`);
  const source = context.createBufferSource();
  source.buffer = data;
  source.loop = true;
  return {
    node: source,
    start: (at) => source.start(at),
    stop: (at) => { try { source.stop(at); } catch { /* already stopped */ } },
  };
}

/** Starts the bed at timeline offset `fromMs`: a fade in now, and the end's fade out ahead. */
async function startBed(timeline, fromMs) {
  const ambient = ambientOf(timeline);
  if (!ambient || !context) return;
  const fadeMs = timeline.ambientFadeMs || 1500;
  let source;
  try {
    source = await bedSource(ambient);
  } catch (error) {
    console.warn(error);
    return;
  }
  if (state.state !== 'running' || !onAudioClock || bed) {
    source.stop(context.currentTime);
    return;
  }
  const gain = context.createGain();
  gain.gain.value = 0;
  source.node.connect(gain).connect(context.destination);
  const t0 = context.currentTime;
  const fade = fadeMs / 1000;
  source.start(t0);
  gain.gain.setValueCurveAtTime(fadeCurve(0, ambient.volume), t0, fade);
  const endAt = timeline.totalMs == null ? null : origin + timeline.totalMs / 1000;
  if (endAt !== null) {
    gain.gain.setValueCurveAtTime(fadeCurve(ambient.volume, 0), Math.max(endAt, t0 + fade), fade);
    source.stop(Math.max(endAt, t0 + fade) + fade + 0.05);
  }
  bed = { gain, stop: source.stop };
  state.ambientPausedBy = null;
  state.ambient = { id: ambient.id, volume: ambient.volume, fadeMs, state: 'playing', fromMs, endsAtMs: timeline.totalMs ?? null };
  claimSound('ambient');
}

/** Pauses only the ambient bed (the practice goes on), because `by` started sounding. */
export function pauseAmbient(by) {
  if (!bed) return;
  releaseBed(state.timeline?.ambientFadeMs || 1500);
  state.ambientPausedBy = by || null;
  if (state.ambient) state.ambient.state = 'paused';
}

/** Starts the ambient bed again where the practice is; call from a user gesture. */
export async function resumeAmbient() {
  if (state.state !== 'running' || !state.timeline || bed) return;
  unlock();
  await startBed(state.timeline, elapsedMs());
}

/** Schedules every cue at or after `fromMs` relative to `origin`. */
async function scheduleFrom(timeline, fromMs) {
  const ctx = audioContext();
  const cues = cueList(timeline).filter((c) => c.offsetMs >= fromMs);
  state.scheduled = cueList(timeline).map((c) => ({ sound: c.sound, offsetMs: c.offsetMs }));
  if (!ctx) return;
  const names = [...new Set(cues.map((c) => c.sound))];
  const decoded = new Map();
  await Promise.all(names.map(async (n) => {
    try { decoded.set(n, await buffer(n)); } catch (e) { console.warn(e); }
  }));
  if (state.state !== 'running' || !onAudioClock) return;
  for (const cue of cues) {
    const data = decoded.get(cue.sound);
    if (!data) continue;
    const when = origin + cue.offsetMs / 1000;
    // A cue the decoding made late by up to LATE_TOLERANCE_S still sounds, at once.
    if (when < ctx.currentTime - LATE_TOLERANCE_S) continue;
    const source = ctx.createBufferSource();
    source.buffer = data;
    source.connect(ctx.destination);
    source.start(Math.max(when, ctx.currentTime));
    sources.push(source);
  }
  // How many cue sources sit on the audio clock now, for tests.
  state.queued = sources.length;
  state.contextState = ctx.state;
}

/** Creates and resumes the AudioContext; call synchronously inside a click or submit handler. */
export function unlock() {
  const ctx = audioContext();
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
}

/** Starts the timeline at offset `elapsedMs` (0 for a fresh start). Call from a user gesture. */
export async function play(timeline, elapsedMs = 0) {
  const ctx = audioContext();
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
  clearSources();
  releaseBed(timeline.ambientFadeMs || 1500);
  state.state = 'running';
  onAudioClock = !!ctx && ctx.state === 'running';
  origin = now() - elapsedMs / 1000;
  state.timeline = timeline;
  pausedAtMs = null;
  await Promise.all([scheduleFrom(timeline, elapsedMs), startBed(timeline, elapsedMs)]);
}

export function pause() {
  if (state.state !== 'running') return;
  pausedAtMs = elapsedMs();
  clearSources();
  releaseBed(state.timeline?.ambientFadeMs || 1500);
  state.state = 'paused';
}

/** Shows a paused run at `elapsedMs` (after a reload) without sounding anything. */
export function showPaused(timeline, elapsedMs) {
  clearSources();
  state.timeline = timeline;
  state.scheduled = cueList(timeline).map((c) => ({ sound: c.sound, offsetMs: c.offsetMs }));
  pausedAtMs = elapsedMs;
  state.state = 'paused';
}

export async function resume() {
  if (state.state !== 'paused' || !state.timeline) return;
  await play(state.timeline, pausedAtMs ?? 0);
}

export function stop() {
  clearSources();
  releaseBed(state.timeline?.ambientFadeMs || 1500);
  state.ambientPausedBy = null;
  state.state = 'stopped';
  pausedAtMs = null;
}

/** Milliseconds into the timeline by the audio clock. */
export function elapsedMs() {
  if (state.state === 'paused') return pausedAtMs ?? 0;
  return Math.max(0, (now() - origin) * 1000);
}
