// Breathe: pick a preset; a circle grows on the inhale and shrinks on the exhale, driven by the
// breathing timeline's segments; the run's sound (every cue) streams through the shared player,
// whose position is the circle's clock.
// The person's own presets are made, edited and deleted here (see breathe-editor.js).
import { api } from './api.js';
import { t, clock, errorText, number } from './i18n.js';
import { el, announce, confirmDialog, refocus, linkQuery } from './dom.js';
import * as player from './player.js';
import { askToStop, reportRun, runningRun, stopRun } from './runs.js';
import { endView, focusEnd } from './run-end.js';
import { presetEditor } from './breathe-editor.js';
import { askAgainWhenOnline, keptCard, unreached } from './offline-practice.js';

let root;
let presets = [];
let selected = null; // the chosen preset's id
let editing = null; // null, or the preset being edited ({} for a new one)
let timeline = null;
let run = null;
let ticker = null;
let lastIndex = -1;
/** What the last session came to, on the completion view until Done. */
let message = '';
let ended = null;
/** The server was out of reach when the presets were asked for: those kept here are shown. */
let away = false;
/** The lock screen's title of a session kept on this device (no preset list to name it then). */
let keptName = null;

export async function mount(view) {
  root = view;
  await loadPresets();
  // With the server out of reach there is no run of its to pick up.
  if (!away) await restore();
  render();
  openLink();
}

/** A deep link `#breathe?preset=box` chooses that preset, ready to start (Start focused). */
function openLink() {
  const wanted = linkQuery('breathe')?.get('preset');
  if (!wanted || timeline || ended || !presets.some((p) => p.id === wanted)) return;
  selected = wanted;
  render();
  root.querySelector('#b-start')?.focus();
}

askAgainWhenOnline(() => root, () => (away ? show() : Promise.resolve()));

export async function show() {
  // The server may be reached again: the presets as they are online, unless a session plays here.
  if (away && !timeline && !ended) {
    await loadPresets();
    render();
  }
  openLink();
}

/** After a reload (or in a second tab), picks up the breathing run the server still runs. */
async function restore() {
  try {
    const state = await runningRun('breathing');
    if (!state) return;
    run = state;
    timeline = state.timeline;
    lastIndex = -1;
    if (state.status === 'paused') player.showPaused(run.id, timeline, state.elapsedMs || 0, session());
    else player.play(run.id, timeline, state.elapsedMs || 0, session());
    clearInterval(ticker);
    ticker = setInterval(tick, 100);
  } catch (error) {
    console.error(error);
  }
}
export const remount = (view) => { root = view; render(); };

async function loadPresets() {
  const data = await api('/breathing/presets').then((answer) => { away = false; return answer; }, (error) => {
    away = unreached(error);
    return { presets: [] };
  });
  presets = data.presets || [];
  if (!presets.some((p) => p.id === selected)) selected = presets.length ? presets[0].id : null;
}

function presetName(p) {
  const key = `breathing.preset.${p.id}`;
  return p.isBuiltIn && t(key) !== key ? t(key) : p.name;
}

function render() {
  root.replaceChildren(el('h1', { id: 'h-breathe' }, t('nav.breathe')));
  if (timeline) {
    renderPlayer();
    tick();
    return;
  }
  if (ended) {
    root.append(endView({
      prefix: 'b',
      kind: 'breathing',
      run: ended,
      doneText: message,
      onDone: () => {
        ended = null;
        render();
        refocus(root, 'b-start', '#b-kept-title');
        if (away) show().catch(console.error);
      },
    }));
    return;
  }
  if (away) {
    root.append(keptCard('breathing', 'b', startKept));
    return;
  }
  const select = el('select', { id: 'b-preset', name: 'preset' });
  const groups = [
    [t('breathing.builtInPresets'), presets.filter((p) => p.isBuiltIn)],
    [t('breathing.ownPresets'), presets.filter((p) => !p.isBuiltIn)],
  ];
  for (const [label, list] of groups) {
    if (!list.length) continue;
    const group = el('optgroup', { label });
    for (const p of list) {
      group.append(el('option', { value: p.id, ...(p.id === selected ? { selected: '' } : {}) }, `${presetName(p)} · ${p.pattern} × ${p.rounds}`));
    }
    select.append(group);
  }
  const current = () => presets.find((p) => p.id === select.value);
  const edit = el('button', { type: 'button', class: 'secondary', id: 'b-edit' }, t('breathing.editPreset'));
  const remove = el('button', { type: 'button', class: 'secondary', id: 'b-delete' }, t('breathing.deletePreset'));
  const add = el('button', { type: 'button', class: 'secondary', id: 'b-new' }, t('breathing.newPreset'));
  const error = el('p', { class: 'error', id: 'b-form-error', role: 'alert', hidden: '' });
  const syncButtons = () => {
    const p = current();
    remove.hidden = !p || p.isBuiltIn;
  };
  select.addEventListener('change', () => { selected = select.value; syncButtons(); showPreview(); });
  edit.addEventListener('click', () => openEditor(current() || {}));
  add.addEventListener('click', () => openEditor({}));
  remove.addEventListener('click', () => deletePreset(current(), error).catch(console.error));
  // A still shape with the chosen pattern: what Start will breathe, before it does.
  const preview = el('div', { class: 'plan-preview', 'aria-hidden': 'true' });
  const showPreview = () => {
    const p = current();
    preview.replaceChildren(
      el('span', { class: 'plan-preview-shape' }, p ? p.pattern : ''),
      el('span', { class: 'plan-preview-rounds' }, p ? `× ${number(p.rounds)}` : ''));
  };
  const form = el('form', { class: 'form card start-card', id: 'b-form' },
    preview,
    el('div', { class: 'field' }, el('label', { for: 'b-preset' }, t('breathing.presetLabel')), select),
    error,
    el('div', { class: 'actions start-bar' },
      el('button', { type: 'submit', class: 'primary large', id: 'b-start' }, t('action.start'))),
    el('div', { class: 'actions quiet-actions' }, edit, remove, add));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    player.unlock();
    start({ preset: select.value }).catch((e) => { error.textContent = errorText(e); error.hidden = false; });
  });
  syncButtons();
  showPreview();
  root.append(form);
  if (editing) {
    root.append(presetEditor(editing, {
      saved: (preset) => saved(preset),
      cancel: () => { const id = editing.id ? 'b-edit' : 'b-new'; editing = null; render(); refocus(root, id); },
    }));
  }
}

function openEditor(preset) {
  editing = preset;
  render();
  refocus(root, 'b-name');
}

async function saved(preset) {
  editing = null;
  await loadPresets();
  selected = preset.id;
  render();
  refocus(root, 'b-preset');
  announce(t('breathing.presetSaved', { name: presetName(preset), pattern: preset.pattern, rounds: preset.rounds }));
}

async function deletePreset(preset, error) {
  if (!preset || preset.isBuiltIn) return;
  const name = presetName(preset);
  if (!(await confirmDialog(t('breathing.confirmDelete', { name }), t('action.delete'), t('action.cancel')))) return;
  try {
    await api(`/breathing/presets/${encodeURIComponent(preset.id)}`, { method: 'DELETE' });
  } catch (e) {
    error.textContent = errorText(e);
    error.hidden = false;
    return;
  }
  if (editing && editing.id === preset.id) editing = null;
  selected = null;
  await loadPresets();
  render();
  refocus(root, 'b-preset');
  announce(t('breathing.presetDeleted', { name }));
}

async function start(plan) {
  keptName = null;
  begin(await api('/runs', { method: 'POST', body: { kind: 'breathing', plan } }));
}

/** Starts a session kept on this device (the server out of reach): `local`, a local run's view. */
function startKept(local) {
  player.unlock();
  keptName = local.name;
  begin(local);
}

/** The run has started: show the player and play its sound. */
function begin(started) {
  run = started;
  timeline = run.timeline;
  lastIndex = -1;
  message = '';
  player.play(run.id, timeline, 0, session());
  render();
  clearInterval(ticker);
  ticker = setInterval(tick, 100);
  root.querySelector('#b-pause')?.focus();
}

/** The lock screen's words for this session and its buttons (player.js shows them). */
function session() {
  const preset = !keptName && presets.find((p) => p.id === selected);
  return {
    title: keptName || (preset ? presetName(preset) : t('kind.breathing')),
    album: preset ? `${t('kind.breathing')} · ${preset.pattern} × ${preset.rounds}` : t('kind.breathing'),
    controls: {
      play: () => { if (player.state.state === 'paused') togglePause().catch(console.error); },
      pause: () => { if (player.state.state === 'running') togglePause().catch(console.error); },
      stop: () => requestStop().catch(console.error),
    },
  };
}

function renderPlayer() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', 'breath');
  svg.setAttribute('aria-hidden', 'true');
  const orb = document.createElementNS(svgNS, 'circle');
  orb.setAttribute('cx', '50'); orb.setAttribute('cy', '50'); orb.setAttribute('r', '46'); orb.setAttribute('class', 'orb');
  // The phase's seconds, counted in large type in the middle of the shape.
  const count = document.createElementNS(svgNS, 'text');
  count.setAttribute('x', '50'); count.setAttribute('y', '50'); count.setAttribute('text-anchor', 'middle');
  count.setAttribute('dominant-baseline', 'central'); count.setAttribute('class', 'breath-count'); count.setAttribute('id', 'b-count');
  svg.append(orb, count);
  // With "reduce motion" the shape stands still; a bar fills on the inhale and empties on the exhale.
  const bar = el('div', { class: 'breath-bar', 'aria-hidden': 'true' }, el('span', { id: 'b-bar' }));
  const paused = player.state.state === 'paused';
  const pause = el('button', { type: 'button', class: 'primary', id: 'b-pause' }, t(paused ? 'action.resume' : 'action.pause'));
  const stop = el('button', { type: 'button', class: 'secondary', id: 'b-stop' }, t('action.stop'));
  pause.addEventListener('click', () => togglePause().catch(console.error));
  stop.addEventListener('click', () => requestStop().catch(console.error));
  root.append(el('div', { class: 'player card' }, svg, bar,
    el('p', { class: 'affirmation breath-phase', id: 'b-phase' }),
    el('p', { class: 'muted', id: 'b-left' }),
    el('div', { class: 'actions' }, pause, stop),
    player.runExtras('b')));
}

// The sound pauses and resumes inside the tap (as a phone requires); the server is told after.
async function togglePause() {
  const button = root.querySelector('#b-pause');
  const orb = root.querySelector('.orb');
  if (player.state.state === 'running') {
    player.pause();
    if (button) button.textContent = t('action.resume');
    // The shape holds where it is while paused: its size now, with no transition.
    if (orb) {
      const now = new DOMMatrixReadOnly(getComputedStyle(orb).transform).a;
      orb.style.setProperty('--breath-ms', '0ms');
      orb.style.setProperty('--breath-scale', String(now || SMALL));
    }
    lastIndex = -1;
    await reportRun(run.id, 'pause');
  } else if (player.state.state === 'paused') {
    player.resume();
    if (button) button.textContent = t('action.pause');
    await reportRun(run.id, 'resume');
  }
  tick();
}

/** The shape's size at the bottom of a breath (1 at the top). */
const SMALL = 0.45;

const PHASE_KEY = { countdown: 'breathing.getReady', inhale: 'breathing.inhale', exhale: 'breathing.exhale', holdAfterInhale: 'breathing.hold', holdAfterExhale: 'breathing.hold' };

function tick() {
  if (!timeline || !root.querySelector('.orb')) return;
  const elapsed = player.elapsedMs();
  const paused = player.state.state === 'paused';
  const segs = timeline.segments || [];
  let index = 0;
  segs.forEach((s, i) => { if (elapsed >= s.startMs) index = i; });
  const seg = segs[index];
  const orb = root.querySelector('.orb');
  const remainingInSeg = seg ? Math.max(0, seg.startMs + (seg.durationMs || 0) - elapsed) : 0;
  if (seg && index !== lastIndex && orb && !paused) {
    lastIndex = index;
    const scale = seg.kind === 'inhale' || seg.kind === 'holdAfterInhale' ? 1 : SMALL;
    const ms = `${seg.kind.startsWith('hold') ? 0 : remainingInSeg}ms`;
    // Set on the next frames, so a shape just drawn small grows from the very first inhale
    // (a transition needs a style to start from).
    requestAnimationFrame(() => requestAnimationFrame(() => {
      orb.style.setProperty('--breath-ms', ms);
      orb.style.setProperty('--breath-scale', String(scale));
    }));
    const text = t(PHASE_KEY[seg.kind] || 'breathing.hold');
    root.querySelector('#b-phase').textContent = text;
    announce(text);
  }
  if (seg) {
    const count = root.querySelector('#b-count');
    const seconds = String(Math.max(1, Math.ceil(remainingInSeg / 1000)));
    if (count && count.textContent !== seconds) count.textContent = seconds;
    const duration = seg.durationMs || 1;
    const done = 1 - remainingInSeg / duration;
    const fill = seg.kind === 'inhale' ? done : seg.kind === 'exhale' ? 1 - done : seg.kind === 'holdAfterInhale' ? 1 : 0;
    root.querySelector('#b-bar')?.style.setProperty('--fill', fill.toFixed(3));
  }
  // The time left to breathe: the get-ready before the first inhale is not counted down.
  const left = Math.max(0, (timeline.totalMs || 0) - Math.max(elapsed, timeline.leadInMs || 0));
  const leftNode = root.querySelector('#b-left');
  if (leftNode) leftNode.textContent = t('player.remaining', { time: clock(left) });
  if (paused) root.querySelector('#b-phase').textContent = t('state.paused');
  document.title = `${clock(left)} · ${paused ? t('player.pausedMark') : t('nav.breathe')} · ${t('app.name')}`;
  if (timeline.totalMs != null && elapsed >= timeline.totalMs && !paused) finish(true).catch(console.error);
}

/** Stop asks once (runs.js): the run pauses while asked; "Keep going" plays on. */
async function requestStop() {
  if (!run) return;
  const answer = await askToStop(run.id, root.querySelector('#b-pause'));
  if (answer && run) await finish(false, answer.keep);
}

async function finish(completed, keep = true) {
  if (!run) return;
  const stopped = run;
  run = null;
  clearInterval(ticker);
  // A session that reached its end plays on to the stream's end: the end gong rings out.
  player.stop({ ringOut: completed });
  const result = await stopRun(stopped.id, { keep, completed }).catch((error) => { console.error(error); return null; });
  message = endingText(result && result.ending);
  ended = result || stopped;
  timeline = null;
  document.title = t('app.name');
  render();
  if (message) announce(message);
  focusEnd(root, 'b');
}

/** What the session came to, in the server's words ("Logged 5 min of breathing."). */
function endingText(ending) {
  return ending && ending.text ? ending.text : '';
}
