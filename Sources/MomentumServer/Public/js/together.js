// Sitting together (issue 45, docs/together.md): one practice several people of a household sit
// at the same moment, each on their own phone. The server owns the session (/api/v1/together);
// this page measures how far its clock is from the server's (round trips over the live feed, the
// estimate computed by the server), then plays the session's one stream in an <audio> element at
// the session's position on the server's clock: every phone hears the same gong at the same
// moment. A late joiner starts at the position; the host's pause and stop arrive on the live feed
// and take effect at once.
//
// Shown on the Meditate screen: the invitations (Join), the session (who is sitting, the host's
// Pause/Resume/Stop, everyone else's Leave) and, at the end, one's own part and who sat together.
//
// window.momentumTogether exposes the state, for tests.
import { api } from './api.js';
import { t, clock } from './i18n.js';
import { el } from './dom.js';
import { askClock, onTogether } from './live.js';

/** Round trips per measurement; the shortest says most. */
const CLOCK_ROUNDS = 8;
/** How often the sound is held to the session's clock, and how far it may stray. */
const FOLLOW_MS = 200;
const SEEK_BEYOND_MS = 250;
const STEER_BEYOND_MS = 8;
/** The most the playback rate leans to catch up (5 %: unheard in a gong). */
const MOST_LEAN = 0.05;

/** This page's clock in milliseconds, finer than Date.now() and read the same way throughout. */
const clockBase = Date.now() - performance.now();
const pageNow = () => clockBase + performance.now();

export const state = {
  /** What this page adds to its clock to read the server's; null until measured. */
  offsetMs: null,
  uncertaintyMs: null,
  /** The session this page is in (or has just left or seen end). */
  room: null,
  /** Sessions this person is invited to and not in. */
  invitations: [],
  /** The sentence of the last refusal, shown in the card. */
  error: null,
  /** How far the sound was from the session's position at the last look (ms; + is ahead). */
  driftMs: null,
};
window.momentumTogether = state;

let audio = null;
let follower = null;
let changed = () => {};

onTogether(async (step) => {
  if (state.room && step.code === state.room.code) {
    // The host's step takes effect now; the whole view (one's part, at the end) follows.
    state.room = { ...state.room, status: step.status, positionMs: step.positionMs, serverAtMs: step.serverAtMs };
    follow();
    if (step.status === 'over') await refresh();
    changed();
    return;
  }
  await loadInvitations();
  changed();
});

/** Re-renders the screen that shows sitting together when something changes. */
export function onChange(handler) {
  changed = handler;
}

/** The invitations, and the session this person is in (after a reload). */
export async function loadInvitations() {
  let sessions;
  try {
    sessions = (await api('/together')).sessions || [];
  } catch (error) {
    console.warn(error);
    return;
  }
  state.invitations = sessions.filter((session) => !session.youAreIn);
  const mine = sessions.find((session) => session.youAreIn);
  if (mine && (!state.room || state.room.code !== mine.code)) await enter(mine);
}

/** Starts a sit together of a run's body (`{kind: 'meditation', plan}`), inviting everyone. */
export async function start(body) {
  await enter(await api('/together', { method: 'POST', body }));
}

export async function join(code) {
  await enter(await api(`/together/${encodeURIComponent(code)}/join`, { method: 'POST', body: {} }));
}

async function step(action) {
  if (!state.room) return;
  state.room = await api(`/together/${encodeURIComponent(state.room.code)}/${action}`, { method: 'POST', body: {} });
  follow();
  changed();
}

/** Puts the page in `room`: measures the clock, then holds the sound to the session. */
async function enter(room) {
  state.room = room;
  state.invitations = state.invitations.filter((session) => session.code !== room.code);
  unlock();
  changed();
  await measureClock();
  clearInterval(follower);
  follower = setInterval(follow, FOLLOW_MS);
  follow();
  changed();
}

/** Re-reads the session (its end: one's part, who sat together). */
async function refresh() {
  if (!state.room) return;
  try {
    state.room = await api(`/together/${encodeURIComponent(state.room.code)}`);
  } catch (error) {
    console.warn(error);
  }
}

/**
 * Measures this page's clock against the server's: round trips over the live feed, or — with
 * the feed down — reads of the session, each with the server's clock in it; the server takes the
 * shortest.
 */
export async function measureClock() {
  const samples = [];
  for (let round = 0; round < CLOCK_ROUNDS; round += 1) {
    try {
      samples.push(await askClock(pageNow));
    } catch {
      if (!state.room) break;
      const sentAt = pageNow();
      const room = await api(`/together/${encodeURIComponent(state.room.code)}`);
      samples.push({ sentAt, serverAt: room.serverAtMs, receivedAt: pageNow() });
    }
  }
  if (!samples.length) return;
  const answer = await api('/together/clock', { method: 'POST', body: { samples } });
  state.offsetMs = answer.offsetMs;
  state.uncertaintyMs = answer.uncertaintyMs;
}

/** The session's position (ms) at `serverNow` by the last word of the server. */
function positionAt(serverNow) {
  const room = state.room;
  if (room.status === 'waiting') return serverNow - room.startsAtMs;
  if (room.status === 'running') return room.positionMs + (serverNow - room.serverAtMs);
  return room.positionMs;
}

function element() {
  if (audio) return audio;
  audio = el('audio', { id: 'together-audio', preload: 'auto', 'aria-hidden': 'true' });
  audio.hidden = true;
  document.body.append(audio);
  return audio;
}

/** Lets a phone play later: called within the tap that starts or joins. */
function unlock() {
  const media = element();
  if (state.room && !media.src.endsWith(state.room.audio)) media.src = state.room.audio;
}

/** Holds the sound to the session's position on the server's clock. */
function follow() {
  const room = state.room;
  const media = element();
  if (!room || state.offsetMs === null) return;
  const playing = room.youAreIn && room.status !== 'over';
  if (!playing) {
    clearInterval(follower);
    follower = null;
    media.pause();
    return;
  }
  if (!media.src.endsWith(room.audio)) media.src = room.audio;
  const wanted = Math.min(positionAt(pageNow() + state.offsetMs), room.lengthMs);
  showTime();
  if (room.status === 'paused' || wanted < 0 || wanted >= room.lengthMs) {
    if (!media.paused) media.pause();
    const at = Math.max(0, wanted) / 1000;
    if (Math.abs(media.currentTime - at) > STEER_BEYOND_MS / 1000) media.currentTime = at;
    state.driftMs = null;
    return;
  }
  if (media.paused) {
    media.playbackRate = 1;
    media.currentTime = wanted / 1000;
    media.play().catch((error) => console.warn(error));
    return;
  }
  const drift = media.currentTime * 1000 - wanted;
  state.driftMs = drift;
  if (Math.abs(drift) > SEEK_BEYOND_MS) {
    media.playbackRate = 1;
    media.currentTime = wanted / 1000;
  } else if (Math.abs(drift) > STEER_BEYOND_MS) {
    // Ahead: a little slower; behind: a little faster, until it is back on the clock.
    media.playbackRate = 1 - Math.max(-MOST_LEAN, Math.min(MOST_LEAN, drift / 2000));
  } else {
    media.playbackRate = 1;
  }
}

/** What is left of the session, as the page's clocks show it. */
function remainingText() {
  const room = state.room;
  if (!room || state.offsetMs === null) return clock(room ? room.lengthMs : 0);
  const position = Math.max(0, Math.min(positionAt(pageNow() + state.offsetMs), room.lengthMs));
  return clock(room.lengthMs - position);
}

function showTime() {
  const node = document.getElementById('together-time');
  if (node) node.textContent = remainingText();
}

/** The card on the Meditate screen: the session, or the invitations; null when there is neither. */
export function card() {
  const room = state.room;
  if (room) return sessionCard(room);
  if (!state.invitations.length) return null;
  return el('section', { class: 'card together-card', 'aria-labelledby': 'together-title', id: 'together' },
    el('h2', { id: 'together-title' }, t('together.title')),
    ...state.invitations.map((session) => el('div', { class: 'together-invitation' },
      el('p', {}, t('together.invited', { host: session.host }), ' ',
        el('span', { class: 'muted' }, session.summary || '')),
      button(`together-join-${session.code}`, t('together.join'), () => join(session.code), 'primary'))),
    state.error ? el('p', { class: 'error', role: 'alert', id: 'together-error' }, state.error) : null);
}

function sessionCard(room) {
  const over = room.status === 'over' || !room.youAreIn;
  const status = over ? t('together.over')
    : room.status === 'paused' ? t('together.paused', { host: room.host })
      : room.status === 'waiting' ? t('together.waiting') : t('together.sittingNow');
  const children = [el('h2', { id: 'together-title' }, t('together.title')),
    room.summary ? el('p', { class: 'muted', id: 'together-summary' }, room.summary) : null,
    el('p', { id: 'together-status', role: 'status' }, status)];
  if (!over) {
    children.push(el('p', { class: 'together-time', id: 'together-time', 'aria-hidden': 'true' }, remainingText()));
    children.push(el('p', { id: 'together-sitting' }, t('together.sitting', { names: room.sitting.join(', ') })));
    const paused = room.status === 'paused';
    const actions = room.youAreHost ? [
      button('together-pause', paused ? t('action.resume') : t('action.pause'), () => step(paused ? 'resume' : 'pause')),
      button('together-stop', t('action.stop'), () => step('stop')),
    ] : [button('together-leave', t('together.leave'), () => step('leave'))];
    children.push(el('div', { class: 'actions' }, ...actions));
  } else {
    if (room.ending) children.push(el('p', { id: 'together-ending' }, room.ending.text));
    if (room.satTogether) children.push(el('p', { class: 'muted' }, t('together.satTogether', { names: room.satTogether.join(', ') })));
    children.push(el('div', { class: 'actions' }, button('together-done', t('together.done'), async () => {
      state.room = null;
      changed();
    }, 'primary')));
  }
  if (state.error) children.push(el('p', { class: 'error', role: 'alert', id: 'together-error' }, state.error));
  return el('section', { class: 'card together-card', 'aria-labelledby': 'together-title', id: 'together' }, ...children);
}

/** A button that runs `action` (a promise) when tapped; a refusal is logged, the view stays. */
function button(id, text, action, className = '') {
  const node = el('button', { type: 'button', id, class: className || null }, text);
  node.addEventListener('click', () => {
    state.error = null;
    action().catch((error) => {
      if (error && error.status === 401) return;
      state.error = (error && error.message) || t('error.generic');
      changed();
    });
  });
  return node;
}
