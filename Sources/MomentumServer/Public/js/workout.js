// Workout: pick a program; a board shows the segment, round, set and exercise with its own
// countdown, while the player schedules every beep on the audio clock. The board's words are the
// core's (`run.board`, one per segment and one for the end); the page only counts the times.
import { api } from './api.js';
import { t, clock, localizeError } from './i18n.js';
import { el, announce } from './dom.js';
import * as player from './player.js';

let root;
let programs = [];
let run = null;
let timeline = null;
/** The server's board words: `segments[i]` from segment i's start, `done` at the end. */
let board = null;
let ticker = null;
let lastIndex = -1;
let message = '';

export async function mount(view) {
  root = view;
  const data = await api('/workouts/programs').catch(() => ({ programs: [] }));
  programs = data.programs || [];
  player.preload(['leadIn', 'shortBeep', 'longBeep', 'halfway', 'finish']);
  render();
}
export const remount = (view) => { root = view; render(); };

function programName(p) {
  const key = `workout.program.${p.id}`;
  return p.isBuiltIn && t(key) !== key ? t(key) : p.name;
}

function render() {
  root.replaceChildren(el('h1', { id: 'h-workout' }, t('nav.workout')));
  if (timeline) return renderBoard();
  if (message) root.append(el('p', { class: 'muted' }, message));
  const select = el('select', { id: 'w-program', name: 'program' });
  for (const p of programs) select.append(el('option', { value: p.id }, `${programName(p)} · ${p.summary}`));
  const error = el('p', { class: 'error', role: 'alert', hidden: '' });
  const form = el('form', { class: 'form card' },
    el('div', { class: 'field' }, el('label', { for: 'w-program' }, t('nav.workout')), select),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'w-start' }, t('action.start'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    player.unlock();
    const program = programs.find((p) => p.id === select.value);
    start(program ? program.plan : {}).catch(async (e) => {
      error.textContent = await localizeError(e);
      error.hidden = false;
    });
  });
  root.append(form);
}

async function start(plan) {
  run = await api('/runs', { method: 'POST', body: { kind: 'workout', plan } });
  timeline = run.timeline;
  board = run.board;
  lastIndex = -1;
  message = '';
  render();
  const playing = player.play(timeline, 0);
  clearInterval(ticker);
  ticker = setInterval(tick, 200);
  tick();
  root.querySelector('#w-pause')?.focus();
  await playing;
}

function renderBoard() {
  const pause = el('button', { type: 'button', class: 'primary', id: 'w-pause' }, t('action.pause'));
  const stop = el('button', { type: 'button', class: 'secondary', id: 'w-stop' }, t('action.stop'));
  pause.addEventListener('click', () => togglePause().catch(console.error));
  stop.addEventListener('click', () => finish().catch(console.error));
  root.append(el('div', { class: 'player card board' },
    el('p', { class: 'board-segment', id: 'w-segment' }),
    el('p', { class: 'board-time', id: 'w-time' }),
    el('p', { class: 'board-exercise', id: 'w-exercise' }),
    el('p', { class: 'muted', id: 'w-detail' }),
    el('p', { class: 'board-next', id: 'w-next' }),
    el('p', { class: 'muted', id: 'w-left' }),
    el('div', { class: 'actions' }, pause, stop)));
}

function tick() {
  if (!timeline) return;
  const elapsed = player.elapsedMs();
  const segs = timeline.segments || [];
  let index = 0;
  segs.forEach((s, i) => { if (elapsed >= s.startMs) index = i; });
  const seg = segs[index];
  if (!seg) return;
  const done = timeline.totalMs != null && elapsed >= timeline.totalMs;
  const segLeft = done ? 0 : Math.max(0, seg.startMs + (seg.durationMs || 0) - elapsed);
  const lines = (done ? board.done : board.segments[index]) || board.done;
  const name = lines.title;
  const detail = [lines.round, lines.set].filter(Boolean).join(' · ');
  root.querySelector('#w-segment').textContent = name;
  root.querySelector('#w-time').textContent = clock(segLeft);
  root.querySelector('#w-exercise').textContent = lines.exercise || '';
  root.querySelector('#w-detail').textContent = detail;
  root.querySelector('#w-next').textContent = lines.next || '';
  const left = Math.max(0, (timeline.totalMs || 0) - elapsed);
  root.querySelector('#w-left').textContent = t('workout.leftTotal', { time: clock(left) });
  document.title = `${clock(segLeft)} · ${name} · ${t('app.name')}`;
  const shownIndex = done ? -2 : index;
  if (shownIndex !== lastIndex) {
    lastIndex = shownIndex;
    announce([name, lines.exercise, detail, lines.next].filter(Boolean).join(', '));
  }
  if (timeline.totalMs != null && elapsed >= timeline.totalMs && player.state.state === 'running') finish(true).catch(console.error);
}

async function togglePause() {
  const button = root.querySelector('#w-pause');
  if (player.state.state === 'running') {
    player.pause();
    await api(`/runs/${run.id}/pause`, { method: 'POST', body: {} });
    button.textContent = t('action.resume');
  } else if (player.state.state === 'paused') {
    await api(`/runs/${run.id}/resume`, { method: 'POST', body: {} });
    await player.resume();
    button.textContent = t('action.pause');
  }
}

async function finish(completed = false) {
  clearInterval(ticker);
  if (completed) setTimeout(() => player.stop(), 3000);
  else player.stop();
  let ending = null;
  if (run) {
    const result = await api(`/runs/${run.id}/stop`, { method: 'POST', body: {} }).catch(() => null);
    ending = result && result.ending;
  }
  message = ending && ending.outcome === 'completed' ? t('workout.finish')
    : ending && ending.logged ? t('player.loggedPractice', { duration: clock(ending.practicedMs || 0), practice: t('kind.workout') })
      : ending && ending.outcome === 'tooShortToLog' ? t('player.tooShortToLog', { duration: clock(ending.practicedMs || 0) }) : '';
  run = null;
  timeline = null;
  board = null;
  document.title = t('app.name');
  render();
  if (message) announce(message);
}
