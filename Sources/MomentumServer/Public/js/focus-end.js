// A focus timer's end, heard and shown with the screen locked (issue 24): while a timer runs, an
// <audio> element plays GET /api/v1/timers/{id}/end-sound — silence for the time the server says is
// left, then the end gong — because a media element keeps playing behind a locked phone screen,
// where the page's own timers and Web Audio are suspended. Only one timer runs at a time (starting
// one pauses the others), so there is one element, for the running timer.
//
// - follow(timers) after every fetch of the list: a running timer that is not playing yet gets a
//   fresh source (the server makes it from the instant of the request, so it is asked for anew on
//   every start, resume and page load); a pause, a reset or a delete — here or, through the live
//   feed, on another device — stops it; a timer whose time is up rings out to the end of its gong.
// - When the time is up (the element's clock passes the due moment, or the page's own tick sees
//   it), a notification "<name> is done" is shown if the browser allows them, and the timers view
//   fetches the list again (`whenStale`) to show the timer done, also in the background. A stream
//   that breaks (the network, a pause the page missed) makes it fetch again too; a run's sound is
//   asked for at most twice.
// - A browser that refuses to play without a tap (a reload, no gesture yet) gets a button in the
//   timer's card: "Tap to hear the end of <name>", with why.
//
// For tests: window.momentumFocusEnd = { timerID, src, paused, blocked, notified }.
import { t } from './i18n.js';
import { el } from './dom.js';
import { permission, showNotification } from './reminder-notifications.js';

let audio = null;
let playing = null; // { id, name, dueAt, dueAtMs } of the timer the element plays, or null
let blocked = null; // the running timer the browser would not play without a tap, or null
let onStale = () => {};
const notified = new Set(); // `${id}|${dueAt}` of the ends already notified
const asked = new Map(); // `${id}|${dueAt}` → how many times its sound was asked for

/** Calls `handler()` when the list should be fetched again: the time is up, or the sound broke. */
export function whenStale(handler) {
  onStale = handler;
}

const runKey = (timer) => `${timer.id}|${timer.dueAt}`;

/** Whether a timer's end sound is playing or waits for a tap. */
export function active() {
  return Boolean(playing || blocked);
}

const source = (id) => `/api/v1/timers/${encodeURIComponent(id)}/end-sound`;

function element() {
  if (!audio) {
    audio = el('audio', { id: 'focus-end-audio', preload: 'auto' });
    audio.addEventListener('timeupdate', () => checkDue(true));
    audio.addEventListener('ended', () => { checkDue(true); stop(); });
    audio.addEventListener('error', () => { if (playing && audio.getAttribute('src')) onStale(); });
    document.body.append(audio);
  }
  return audio;
}

/**
 * Follows the timers as the server last answered them (`remainingMs` counted from `fetchedAt`,
 * the page's monotonic clock).
 */
export function follow(timers, fetchedAt) {
  const running = timers.find((x) => x.status === 'running');
  if (playing) {
    const now = timers.find((x) => x.id === playing.id);
    const ringing = now && now.status === 'completed';
    const same = running && running.id === playing.id && running.dueAt === playing.dueAt;
    if (!ringing && !same) stop();
    else if (same && audio.error) stop(); // the stream broke: ask for the rest anew below
  }
  if (blocked && !(running && running.id === blocked.id && running.dueAt === blocked.dueAt)) blocked = null;
  if (running && !playing && !blocked && (asked.get(runKey(running)) || 0) < 2) play(running, fetchedAt);
  drawPrompt();
}

function play(timer, fetchedAt) {
  const player = element();
  playing = { id: timer.id, name: timer.name, dueAt: timer.dueAt, dueAtMs: fetchedAt + timer.remainingMs };
  asked.set(runKey(timer), (asked.get(runKey(timer)) || 0) + 1);
  player.src = source(timer.id);
  player.play().catch((error) => {
    if (error.name !== 'NotAllowedError' || !playing || playing.id !== timer.id) return;
    // No gesture yet: nothing is fetched until the person taps, so the sound starts from then.
    blocked = playing;
    stop();
    drawPrompt();
  });
}

/** The tap that lets the browser play: asks for the sound from this instant. */
function tapped() {
  if (!blocked) return;
  const timer = blocked;
  blocked = null;
  asked.delete(runKey(timer));
  const left = timer.dueAtMs - performance.now();
  play({ ...timer, remainingMs: Math.max(0, left) }, performance.now());
  drawPrompt();
}

function stop() {
  playing = null;
  if (!audio) return;
  audio.pause();
  audio.removeAttribute('src');
  audio.load();
}

/** The time is up: once per run, show the notification, and (unless the page's tick saw it) tell the view. */
function checkDue(fromSound) {
  if (!playing || performance.now() < playing.dueAtMs) return;
  const key = runKey(playing);
  if (notified.has(key)) return;
  notified.add(key);
  if (permission() === 'granted') {
    showNotification(t('focus.endNotification', { name: playing.name }), { tag: `focus-${playing.id}` });
  }
  if (fromSound) onStale();
}

/** The page's own tick saw a timer's time run out (the page is visible and fetches the list itself). */
export function timeIsUp() {
  checkDue(false);
}

/** The empty place in a timer's card where the tap-to-hear button shows. */
export function promptPlace(timer) {
  return el('div', { class: 'focus-end-prompt', id: `t-${timer.id}-hear`, hidden: '' });
}

function drawPrompt() {
  for (const place of document.querySelectorAll('.focus-end-prompt')) {
    const wanted = blocked && place.id === `t-${blocked.id}-hear`;
    if (!wanted) {
      place.hidden = true;
      place.replaceChildren();
      continue;
    }
    if (!place.hidden) continue;
    const whyId = `${place.id}-why`;
    const button = el('button', { type: 'button', class: 'secondary', id: `${place.id}-button`, 'aria-describedby': whyId },
      t('focus.tapToHear', { name: blocked.name }));
    button.addEventListener('click', tapped);
    place.replaceChildren(button, el('p', { class: 'muted', id: whyId }, t('focus.tapToHearWhy')));
    place.hidden = false;
  }
}

window.momentumFocusEnd = {
  get timerID() { return playing ? playing.id : null; },
  get src() { return audio ? audio.getAttribute('src') : null; },
  get paused() { return !audio || audio.paused; },
  get blocked() { return blocked ? blocked.id : null; },
  get notified() { return [...notified]; },
};
