// Workout: pick a program; a board shows the segment, round, set and exercise with its own
// countdown, while the run's sound (every beep) streams through the shared player, whose position
// is the board's clock. The board's words are the
// core's (`run.board`, one per segment and one for the end); the page only counts the times.
import { api } from './api.js';
import { t, clock, countdown, localizeError, boundAttributes, fieldBounds } from './i18n.js';
import { el, announce, confirmDialog, field, linkQuery } from './dom.js';
import { submitForm } from './form-errors.js';
import * as player from './player.js';
import { askToStop, reportRun, runningRun, stopRun } from './runs.js';
import { askAgainWhenOnline, keptCard, unreached } from './offline-practice.js';
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
/** The program in the builder (`{}` for a new one), or null; the one chosen in the list. */
let building = null;
let chosen = null;
/** The run that just ended, on the completion view until Done. */
let ended = null;

export async function mount(view) {
  root = view;
  await loadPrograms();
  // With the server out of reach there is no run of its to pick up.
  if (!away) await restore();
  render();
  openLink();
}

/** A deep link `#workout?program=tabata` chooses that program, ready to start (Start focused). */
function openLink() {
  const wanted = linkQuery('workout')?.get('program');
  if (!wanted || timeline || ended || building || !programs.some((p) => p.id === wanted)) return;
  chosen = wanted;
  render();
  root.querySelector('#w-start')?.focus();
}

askAgainWhenOnline(() => root, () => (away ? show() : Promise.resolve()));

export async function show() {
  // The server may be reached again: the programs as they are online, unless a workout plays here.
  if (away && !timeline && !ended) {
    await loadPrograms();
    render();
  }
  openLink();
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
      onDone: () => {
        ended = null;
        message = '';
        render();
        (root.querySelector('#w-start') || root.querySelector('#w-kept-title'))?.focus();
        if (away) show().catch(console.error);
      },
    }));
    return;
  }
  if (away) {
    root.append(keptCard('workout', 'w', startKept));
    return;
  }
  const select = el('select', { id: 'w-program', name: 'program' });
  for (const p of programs) select.append(el('option', { value: p.id }, `${programName(p)} · ${p.summary}`));
  const error = el('p', { class: 'error', role: 'alert', hidden: '' });
  // The chosen program in the server's words, large: what Start will run.
  const summary = el('p', { class: 'plan-summary', id: 'w-summary', 'aria-live': 'polite' });
  const form = el('form', { class: 'form card start-card' },
    el('div', { class: 'field' }, el('label', { for: 'w-program' }, t('nav.workout')), select),
    summary,
    error,
    el('div', { class: 'actions start-bar' }, el('button', { type: 'submit', class: 'primary large', id: 'w-start' }, t('action.start'))),
    el('div', { class: 'actions quiet-actions' }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    player.unlock();
    const program = programs.find((p) => p.id === select.value);
    start(program).catch(async (e) => {
      error.textContent = await localizeError(e);
      error.hidden = false;
    });
  });
  const current = () => programs.find((p) => p.id === select.value);
  const add = el('button', { type: 'button', class: 'secondary', id: 'w-new' }, t('workout.newProgram'));
  const edit = el('button', { type: 'button', class: 'secondary', id: 'w-edit' }, t('workout.editProgram'));
  const remove = el('button', { type: 'button', class: 'secondary danger', id: 'w-delete' }, t('workout.deleteProgram'));
  const own = () => {
    const p = current();
    edit.hidden = !p || p.isBuiltIn;
    remove.hidden = edit.hidden;
    summary.replaceChildren(...(p ? [el('strong', {}, programName(p)), el('span', {}, p.summary)] : []));
  };
  select.addEventListener('change', own);
  if (chosen && programs.some((p) => p.id === chosen)) select.value = chosen;
  own();
  add.addEventListener('click', () => { building = {}; render(); root.querySelector('#wb-name')?.focus(); });
  edit.addEventListener('click', () => { building = current(); render(); root.querySelector('#wb-work')?.focus(); });
  remove.addEventListener('click', () => deleteProgram(current(), error).catch(console.error));
  form.querySelector('.quiet-actions').append(add, edit, remove);
  root.append(form);
  if (building) root.append(builder(building));
}

// The builder: your own program — work, rest, rounds, sets, rest between sets, get ready,
// warm-up, cool-down and the exercises' names — saved on the server (POST, or PUT for an own
// program); the server checks it and says what is wrong in the page's language. Every bound is
// the catalog's (`forms`: workout.*).
const TIMES = [
  ['wb-work', 'workout.workSeconds', 'workMs', 'workout.field.work'],
  ['wb-rest', 'workout.restSeconds', 'restMs', 'workout.field.rest'],
  ['wb-rounds', 'workout.rounds', 'rounds', 'workout.field.rounds'],
  ['wb-sets', 'workout.sets', 'sets', 'workout.field.sets'],
  ['wb-set-rest', 'workout.setRestSeconds', 'setRestMs', 'workout.field.setRest'],
  ['wb-get-ready', 'workout.getReadySeconds', 'getReadyMs', 'workout.field.getReady'],
  ['wb-warm-up', 'workout.warmUpSeconds', 'warmUpMs', 'workout.field.warmUp'],
  ['wb-cool-down', 'workout.coolDownSeconds', 'coolDownMs', 'workout.field.coolDown'],
];

function builder(program) {
  const plan = program.plan || {};
  const isNew = !program.id;
  // No maxlength: a name over the limit is refused with the limit, never cut while typing.
  const name = el('input', { type: 'text', id: 'wb-name', name: 'name', autocomplete: 'off', value: isNew ? '' : programName(program), ...(isNew ? {} : { readonly: '' }) });
  const fields = TIMES.map(([id, bounds, key, label]) => {
    const counted = key === 'rounds' || key === 'sets';
    const value = plan[key] != null ? (counted ? plan[key] : Math.round(plan[key] / 1000)) : fieldBounds(bounds).default;
    const input = el('input', { type: 'number', id, name: key, inputmode: 'numeric', ...boundAttributes(bounds), value: value ?? '' });
    return field(id, t(label), input, counted ? null : t('meditate.secondsUnit'));
  });
  const exercises = el('textarea', { id: 'wb-exercises', name: 'exercises', rows: '3', 'aria-describedby': 'wb-exercises-help' });
  exercises.value = (plan.exerciseNames || []).join('\n');
  const error = el('p', { class: 'error', id: 'wb-error', role: 'alert', hidden: '' });
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'wb-cancel' }, t('action.cancel'));
  cancel.addEventListener('click', () => { building = null; render(); root.querySelector('#w-new')?.focus(); });
  const form = el('form', { class: 'form card editor', id: 'wb-form', novalidate: '', 'aria-labelledby': 'wb-title' },
    el('h2', { id: 'wb-title' }, isNew ? t('workout.newProgram') : t('workout.editProgramNamed', { name: programName(program) })),
    field('wb-name', t('workout.field.name'), name),
    el('div', { class: 'form-grid' }, ...fields),
    el('div', { class: 'field' }, el('label', { for: 'wb-exercises' }, t('workout.field.exercises')), exercises,
      el('p', { class: 'muted', id: 'wb-exercises-help' }, t('workout.field.exercisesHelp'))),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'wb-save' }, t('action.save')), cancel));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = {};
    for (const [id, , key] of TIMES) {
      const value = Number(form.querySelector(`#${id}`).value);
      body[key] = key === 'rounds' || key === 'sets' ? value : Math.round(value * 1000);
    }
    body.exerciseNames = exercises.value.split('\n').map((line) => line.trim()).filter(Boolean);
    const controls = { name, exerciseNames: exercises };
    for (const [id, , key] of TIMES) controls[key] = form.querySelector(`#${id}`);
    let saved;
    const sent = await submitForm(form, error, controls, async () => {
      saved = isNew
        ? await api('/workouts/programs', { method: 'POST', body: { name: name.value.trim(), plan: body } })
        : await api(`/workouts/programs/${encodeURIComponent(program.id)}`, { method: 'PUT', body: { plan: body } });
    });
    if (!sent) return;
    building = null;
    chosen = saved.id;
    await loadPrograms();
    render();
    root.querySelector('#w-program')?.focus();
    announce(t('workout.programSaved', { name: saved.name, summary: saved.summary }));
  });
  return form;
}

/** The server was out of reach when the programs were asked for: those kept here are shown. */
let away = false;

async function loadPrograms() {
  const data = await api('/workouts/programs').then((answer) => { away = false; return answer; }, (error) => {
    away = unreached(error);
    return { programs: [] };
  });
  programs = data.programs || [];
}

async function deleteProgram(program, error) {
  if (!program || program.isBuiltIn) return;
  const name = programName(program);
  if (!(await confirmDialog(t('workout.confirmDelete', { name }), t('action.delete'), t('action.cancel')))) return;
  try {
    await api(`/workouts/programs/${encodeURIComponent(program.id)}`, { method: 'DELETE' });
  } catch (e) {
    error.textContent = await localizeError(e);
    error.hidden = false;
    return;
  }
  if (building && building.id === program.id) building = null;
  chosen = null;
  await loadPrograms();
  render();
  root.querySelector('#w-program')?.focus();
  announce(t('workout.programDeleted', { name }));
}

async function start(program) {
  begin(await api('/runs', { method: 'POST', body: program ? { kind: 'workout', program: program.id } : { kind: 'workout', plan: {} } }), program);
}

/** Starts a workout kept on this device (the server out of reach): `local`, a local run's view. */
function startKept(local) {
  player.unlock();
  begin(local, { name: local.name, summary: local.summary || '' });
}

/** The run has started: show the board and play its sound. */
function begin(started, program) {
  run = started;
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
    album: program && program.summary ? `${t('kind.workout')} · ${program.summary}` : t('kind.workout'),
    controls: {
      play: () => { if (player.state.state === 'paused') togglePause().catch(console.error); },
      pause: () => { if (player.state.state === 'running') togglePause().catch(console.error); },
      stop: () => requestStop().catch(console.error),
    },
  };
}

function renderBoard() {
  const pause = el('button', { type: 'button', class: 'primary', id: 'w-pause' }, t(player.state.state === 'paused' ? 'action.resume' : 'action.pause'));
  const stop = el('button', { type: 'button', class: 'secondary', id: 'w-stop' }, t('action.stop'));
  pause.addEventListener('click', () => togglePause().catch(console.error));
  stop.addEventListener('click', () => requestStop().catch(console.error));
  // Every line is always there (an empty one keeps its height), so nothing moves between phases.
  root.append(el('div', { class: 'player card board' },
    el('p', { class: 'board-segment', id: 'w-segment' }),
    el('p', { class: 'board-time', id: 'w-time', role: 'timer', 'aria-live': 'off' }),
    el('p', { class: 'board-exercise', id: 'w-exercise' }),
    el('p', { class: 'board-next', id: 'w-next' }),
    el('p', { class: 'board-detail', id: 'w-detail' }),
    el('p', { class: 'board-left', id: 'w-left' }),
    el('div', { class: 'actions' }, pause, stop),
    player.runExtras('w')));
}

/** The board's colour for each kind of timeline segment (app.css: the phase fills the screen). */
const PHASES = { work: 'work', rest: 'rest', setRest: 'setRest', getReady: 'prepare', warmUp: 'prepare', coolDown: 'prepare' };

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
  // Work and rest in the theme's distinct colours; the beeping last seconds counted large.
  const boardNode = root.querySelector('.board');
  if (boardNode) boardNode.dataset.phase = done ? 'done' : PHASES[seg.kind] || 'prepare';
  const final = !done && segLeft > 0 && segLeft <= (board.finalCountMs || 0);
  const timeNode = root.querySelector('#w-time');
  const shown = final ? String(Math.ceil(segLeft / 1000)) : countdown(segLeft);
  if (timeNode.textContent !== shown) {
    timeNode.textContent = shown;
    timeNode.dataset.chars = String(shown.length);
  }
  timeNode.classList.toggle('final', final);
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

/** Stop asks once (runs.js): the run pauses while asked; "Keep going" plays on. */
async function requestStop() {
  if (!run) return;
  const answer = await askToStop(run.id, root.querySelector('#w-pause'));
  if (answer && run) await finish(false, answer.keep);
}

async function finish(completed = false, keep = true) {
  if (!run) return;
  const stopped = run;
  run = null;
  clearInterval(ticker);
  // A workout that reached its end plays on to the stream's end: the last chime rings out.
  player.stop({ ringOut: completed });
  const result = await stopRun(stopped.id, { keep, completed }).catch(() => null);
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
