// Morse tones with Web Audio. The server sends every sound as its keyer's elements (tone on or off
// for so many milliseconds); they are scheduled here as they are, as gain ramps on the
// AudioContext clock — nothing about Morse timing is worked out in the browser. Each tone rises
// and falls along a raised cosine of the session's `riseMs`, so there are no key clicks.
// window.momentumMorseAudio tells tests what sits on the audio clock (times, never the elements).

const LEVEL = 0.3; // the tone's peak gain: clear, and calm next to the gongs
const LEAD_S = 0.05; // scheduling lead, so the first ramp is never in the past
/** The smallest lead that still schedules ahead of the audio clock: for a key's own tone. */
export const PROMPT_LEAD_S = 0.005;
let context = null;
let voices = []; // { oscillator, gain, endAt } still playing or waiting to play
let live = null; // the straight key's open tone
let hushes = 0; // how many times silence() ran: a sound fetched across one must not start

export const state = {
  sequences: 0, lastStartAt: null, lastEndAt: null, contextTime: 0, contextState: 'none', sounds: 0,
  /** The audio clock now, in seconds (0 before there is one). */
  clock: () => (context ? context.currentTime : 0),
};
window.momentumMorseAudio = state;

/** The Morse AudioContext, made on first use (null where the browser has no Web Audio). */
export function sharedContext() {
  return audioContext();
}

function audioContext() {
  if (!context) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    context = new Ctx();
  }
  return context;
}

/** Creates and resumes the AudioContext; call inside a click, key or submit handler. */
export function unlock() {
  const ctx = audioContext();
  if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => {});
}

/** Whether tones are actually heard (a context the browser keeps suspended plays nothing). */
function running() {
  return !!context && context.state === 'running';
}

/** `count` points of a raised cosine from `from` to `to`, for setValueCurveAtTime. */
function curve(from, to, count = 32) {
  const points = new Float32Array(count);
  for (let k = 0; k < count; k++) points[k] = from + (to - from) * (0.5 - 0.5 * Math.cos((Math.PI * k) / (count - 1)));
  return points;
}

function voice(tone) {
  const oscillator = context.createOscillator();
  oscillator.type = 'sine';
  oscillator.frequency.value = tone.hertz;
  const gain = context.createGain();
  gain.gain.value = 0;
  oscillator.connect(gain).connect(context.destination);
  return { oscillator, gain };
}

/** Ramps one tone in at `at` and out `ms` later; the ramps never overlap, however short the tone. */
function shape(param, at, ms, riseMs) {
  const rise = Math.min(riseMs, ms * 0.45) / 1000;
  param.setValueCurveAtTime(curve(0, LEVEL), at, rise);
  param.setValueCurveAtTime(curve(LEVEL, 0), at + ms / 1000 - rise, rise);
}

/**
 * Plays `elements` from `afterMs` milliseconds from now. Resolves to how many milliseconds from now
 * the sound ends (by the audio clock when it runs; by the elements' sum when the browser keeps
 * audio suspended, so the page still moves on). `owner` names who played it, so silence(owner)
 * can stop just those sounds.
 */
export function play(elements, tone, afterMs = 0, leadS = LEAD_S, owner = null) {
  const total = elements.reduce((sum, e) => sum + e.ms, 0);
  const ctx = audioContext();
  if (!ctx || !running()) return afterMs + total;
  const startAt = ctx.currentTime + leadS + afterMs / 1000;
  const { oscillator, gain } = voice(tone);
  let at = startAt;
  for (const element of elements) {
    if (element.on) shape(gain.gain, at, element.ms, tone.riseMs);
    at += element.ms / 1000;
  }
  oscillator.start(startAt);
  oscillator.stop(at + 0.01);
  return scheduled(ctx, oscillator, gain, startAt, at, owner);
}

/**
 * Keeps a sound put on the clock (`node` through `gain`, from `startAt` to `endAt`) so silence()
 * can stop it, notes it for tests, and says how many milliseconds from now it ends.
 */
function scheduled(ctx, node, gain, startAt, endAt, owner = null) {
  const entry = { oscillator: node, gain, endAt, owner };
  voices.push(entry);
  node.addEventListener('ended', () => { voices = voices.filter((v) => v !== entry); gain.disconnect(); });
  state.sequences += 1;
  state.lastStartAt = startAt;
  state.lastEndAt = endAt;
  state.contextTime = ctx.currentTime;
  state.contextState = ctx.state;
  return (endAt - ctx.currentTime) * 1000;
}

/**
 * Plays the server's sound at `url` (an item on a band: noise, fading, another station) from
 * `afterMs` milliseconds from now, on the same clock as the tones. Resolves to how many
 * milliseconds from now the sound ends. When it cannot be fetched or decoded, `elements` (the same
 * keying) are played as tones instead, so the drill still goes on; when audio is suspended it
 * resolves by their sum, as play() does.
 */
export async function playSound(url, elements, tone, afterMs = 0) {
  const ctx = audioContext();
  const asked = performance.now();
  const later = () => Math.max(0, afterMs - (performance.now() - asked));
  if (!ctx || !running()) return play(elements, tone, afterMs);
  const hushed = hushes;
  let buffer;
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    buffer = await ctx.decodeAudioData(await response.arrayBuffer());
  } catch (failure) {
    console.warn('The band sound did not come; the item plays clean.', failure);
    return hushed === hushes ? play(elements, tone, later()) : 0;
  }
  if (hushed !== hushes) return 0; // silenced while it came: it never starts
  const startAt = ctx.currentTime + LEAD_S + later() / 1000;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const gain = ctx.createGain();
  source.connect(gain).connect(ctx.destination);
  source.start(startAt);
  state.sounds += 1;
  return scheduled(ctx, source, gain, startAt, startAt + buffer.duration);
}

/**
 * Silences everything scheduled or sounding, at once; with `owner`, only what it played (the
 * paddle keyer's scheduled elements, say), leaving the rest.
 */
export function silence(owner = null) {
  const stopping = owner === null ? voices : voices.filter((v) => v.owner === owner);
  for (const v of stopping) {
    try { v.oscillator.stop(); } catch { /* not started or already stopped */ }
  }
  voices = voices.filter((v) => !stopping.includes(v));
  if (owner !== null) return;
  hushes += 1;
  keyUp();
}

/** The straight key goes down: a tone rises now and holds until keyUp(). */
export function keyDown(tone) {
  const ctx = audioContext();
  if (!ctx || !running() || live) return;
  const at = ctx.currentTime;
  const { oscillator, gain } = voice(tone);
  gain.gain.setValueCurveAtTime(curve(0, LEVEL), at, tone.riseMs / 1000);
  oscillator.start(at);
  live = { oscillator, gain, tone, riseEnds: at + tone.riseMs / 1000 };
}

/** The straight key comes up: the tone falls along the same curve. */
export function keyUp() {
  if (!live) return;
  const { oscillator, gain, tone, riseEnds } = live;
  live = null;
  // After the rise has ended (a curve must not be cut), hold the level, then fall.
  const at = Math.max(context.currentTime, riseEnds + 0.001);
  gain.gain.cancelScheduledValues(at);
  gain.gain.setValueAtTime(LEVEL, at);
  gain.gain.setValueCurveAtTime(curve(LEVEL, 0), at, tone.riseMs / 1000);
  oscillator.stop(at + tone.riseMs / 1000 + 0.01);
  oscillator.addEventListener('ended', () => gain.disconnect());
}
