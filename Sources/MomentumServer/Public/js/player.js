// Plays a timeline's cues with Web Audio: each cue sound is fetched and decoded once, and every
// cue is scheduled ahead on the AudioContext clock, so a background tab stays on time.
// window.momentumPlayer exposes what is scheduled, for tests.

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
let bed = null; // { source, gain }
state.ambient = null;

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
  const { source, gain } = bed;
  bed = null;
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
  try { source.stop(t0 + fadeMs / 1000 + 0.05); } catch { /* already stopped */ }
  if (state.ambient) state.ambient.state = 'fadingOut';
}

/** Starts the bed at timeline offset `fromMs`: a fade in now, and the end's fade out ahead. */
async function startBed(timeline, fromMs) {
  const ambient = ambientOf(timeline);
  if (!ambient || !context) return;
  const fadeMs = timeline.ambientFadeMs || 1500;
  let data;
  try {
    data = await buffer(`ambient:${ambient.id}`, `/api/v1/sounds/ambient/${encodeURIComponent(ambient.id)}.wav`);
  } catch (error) {
    console.warn(error);
    return;
  }
  if (state.state !== 'running' || !onAudioClock || bed) return;
  const source = context.createBufferSource();
  source.buffer = data;
  source.loop = true;
  const gain = context.createGain();
  gain.gain.value = 0;
  source.connect(gain).connect(context.destination);
  const t0 = context.currentTime;
  const fade = fadeMs / 1000;
  source.start(t0);
  gain.gain.setValueCurveAtTime(fadeCurve(0, ambient.volume), t0, fade);
  const endAt = timeline.totalMs == null ? null : origin + timeline.totalMs / 1000;
  if (endAt !== null) {
    gain.gain.setValueCurveAtTime(fadeCurve(ambient.volume, 0), Math.max(endAt, t0 + fade), fade);
    source.stop(Math.max(endAt, t0 + fade) + fade + 0.05);
  }
  bed = { source, gain };
  state.ambient = { id: ambient.id, volume: ambient.volume, fadeMs, state: 'playing', fromMs, endsAtMs: timeline.totalMs ?? null };
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
  state.state = 'stopped';
  pausedAtMs = null;
}

/** Milliseconds into the timeline by the audio clock. */
export function elapsedMs() {
  if (state.state === 'paused') return pausedAtMs ?? 0;
  return Math.max(0, (now() - origin) * 1000);
}
