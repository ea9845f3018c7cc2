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

async function buffer(sound) {
  if (buffers.has(sound)) return buffers.get(sound);
  const promise = fetch(`/api/v1/sounds/${encodeURIComponent(sound)}.wav`)
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

/** Every cue with a sound, repeating cues expanded, in offset order. */
export function cueList(timeline) {
  const cues = (timeline.cues || []).filter((c) => c.sound).map((c) => ({ sound: c.sound, offsetMs: c.offsetMs }));
  const end = timeline.totalMs ?? null;
  for (const r of timeline.repeatingCues || []) {
    if (!r.sound || !(r.intervalMs > 0)) continue;
    const until = r.untilMs ?? end ?? r.firstMs + r.intervalMs * 600;
    for (let at = r.firstMs; at < until; at += r.intervalMs) cues.push({ sound: r.sound, offsetMs: at });
  }
  return cues.sort((a, b) => a.offsetMs - b.offsetMs);
}

function clearSources() {
  for (const s of sources) {
    try { s.stop(); } catch { /* already ended */ }
  }
  sources = [];
  state.queued = 0;
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
  state.state = 'running';
  onAudioClock = !!ctx && ctx.state === 'running';
  origin = now() - elapsedMs / 1000;
  state.timeline = timeline;
  pausedAtMs = null;
  await scheduleFrom(timeline, elapsedMs);
}

export function pause() {
  if (state.state !== 'running') return;
  pausedAtMs = elapsedMs();
  clearSources();
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
  state.state = 'stopped';
  pausedAtMs = null;
}

/** Milliseconds into the timeline by the audio clock. */
export function elapsedMs() {
  if (state.state === 'paused') return pausedAtMs ?? 0;
  return Math.max(0, (now() - origin) * 1000);
}
