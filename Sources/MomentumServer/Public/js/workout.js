// Workout: pick a program; a board shows the segment, round, set and exercise with its own
// countdown, while the run's sound (every beep) streams through the shared player, whose position
// is the board's clock. The board's words are the
// core's (`run.board`, one per segment and one for the end); the page only counts the times.
import { api } from './api.js';
import { t, clock, localizeError } from './i18n.js';
import { el, announce } from './dom.js';
import * as player from './player.js';
import { reportRun, runningRun, stopRun } from './runs.js';
import { endView, focusEnd } from './run-end.js';

let root;
let programs = [];
let run = null;
let timeline = null;
/** The server's board words: `segments[i]` from segment i's start, `done` at the end. */
let board = null;
let ticker = null;
let lastIndex = -1;
let message = '';
/** The run that just ended, on the completion view until Done. */
let ended = null;

export async function mount(view) {
  root = view;
  const data = await api('/workouts/programs').catch(() => ({ programs: [] }));
  programs = data.programs || [];
  await restore();
  render();
}

/** After a reload (or in a second tab), picks up the workout the server still runs. */
async function restore() {
  try {
    const state = await runningRun('workout');
    if (!state) return;
    run = state;
    timeline = state.timeline;
    board = state.board;
    lastIndex = -1;
    if (state.status === 'paused') player.showPaused(run.id, timeline, state.elapsedMs || 0, session(null));
    else player.play(run.id, timeline, state.elapsedMs || 0, session(null));
    clearInterval(ticker);
    ticker = setInterval(tick, 200);
  } catch (error) {
    console.error(error);
  }
}
export const remount = (view) => { root = view; render(); };

function programName(p) {
  const key = `workout.program.${p.id}`;
  return p.isBuiltIn && t(key) !== key ? t(key) : p.name;
}

function render() {
  root.replaceChildren(el('h1', { id: 'h-workout' }, t('nav.workout')));
  if (timeline) {
    renderBoard();
    tick();
    return;
  }
  if (ended) {
    root.append(endView({
      prefix: 'w',
      kind: 'workout',
      run: ended,
      doneText: message,
      onDone: () => { ended = null; message = ''; render(); root.querySelector('#w-start')?.focus(); },
    }));
    return;
  }
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
    start(program).catch(async (e) => {
      error.textContent = await localizeError(e);
      error.hidden = false;
    });
  });
  root.append(form);
}

async function start(program) {
  run = await api('/runs', { method: 'POST', body: { kind: 'workout', plan: program ? program.plan : {} } });
  timeline = run.timeline;
  board = run.board;
  lastIndex = -1;
  message = '';
  player.play(run.id, timeline, 0, session(program));
  render();
  clearInterval(ticker);
  ticker = setInterval(tick, 200);
  root.querySelector('#w-pause')?.focus();
}

/** The lock screen's words for this workout and its buttons (player.js shows them). */
function session(program) {
  return {
    title: program ? programName(program) : t('kind.workout'),
    album: program ? `${t('kind.workout')} · ${program.summary}` : t('kind.workout'),
    controls: {
      play: () => { if (player.state.state === 'paused') togglePause().catch(console.error); },
      pause: () => { if (player.state.state === 'running') togglePause().catch(console.error); },
      stop: () => finish().catch(console.error),
    },
  };
}

function renderBoard() {
  const pause = el('button', { type: 'button', class: 'primary', id: 'w-pause' }, t(player.state.state === 'paused' ? 'action.resume' : 'action.pause'));
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
    el('div', { class: 'actions' }, pause, stop),
    player.runExtras('w')));
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

// The sound pauses and resumes inside the tap (as a phone requires); the server is told after.
async function togglePause() {
  const button = root.querySelector('#w-pause');
  if (player.state.state === 'running') {
    player.pause();
    button.textContent = t('action.resume');
    await reportRun(run.id, 'pause');
  } else if (player.state.state === 'paused') {
    player.resume();
    button.textContent = t('action.pause');
    await reportRun(run.id, 'resume');
  }
}

async function finish(completed = false) {
  if (!run) return;
  const stopped = run;
  run = null;
  clearInterval(ticker);
  // A workout that reached its end plays on to the stream's end: the last chime rings out.
  player.stop({ ringOut: completed });
  const result = await stopRun(stopped.id).catch(() => null);
  ended = result || stopped;
  const ending = result && result.ending;
  // What the workout came to, in the server's words ("Logged a workout of 7 min.").
  message = ending && ending.text ? ending.text : '';
  timeline = null;
  board = null;
  document.title = t('app.name');
  render();
  if (message) announce(message);
  focusEnd(root, 'w');
}
