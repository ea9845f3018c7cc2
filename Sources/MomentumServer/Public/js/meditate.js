// Meditate: a plan form, then a run with a calm ring, phase, pause/resume/stop and scheduled cues.
import { api } from './api.js';
import { t, clock, language, locale, localizeError, boundAttributes, fieldBounds } from './i18n.js';
import * as player from './player.js';
import { askToStop, reportRun, runningRun, stopRun } from './runs.js';
import { endView, focusEnd } from './run-end.js';
import { announce, confirmDialog, el, field as labelled } from './dom.js';
import { clearRefusals, numberRefusal, showRefusal } from './form-errors.js';
import { askAgainWhenOnline, keptCard, unreached } from './offline-practice.js';
import * as together from './together.js';

const RING = 2 * Math.PI * 45;

let root;
let plan = null;
/**
 * The server's view of the form (GET /meditation/form): the interval-gong choices with their
 * labels and plan forms. The page shows it and sends the chosen choice's `gongs` back unchanged;
 * it knows no interval rule or bound of its own (the number fields' bounds come with the catalog).
 */
let form = null;
let ambient = [];
/** The person's own ambient sounds (library items marked as beds), after the built-in ones. */
let ownBeds = [];
// An own bed is played by the browser only: the server's plans know the built-in beds, so the
// plan it gets says `silent` and the choice is remembered here (see docs/library.md).
const OWN_BED_KEY = 'momentum.meditate.ownBed';
const RUN_BED_KEY = 'momentum.meditate.runBed';
const LIBRARY_PREFIX = 'library:';
let run = null;
let timeline = null;
let ticker = null;
let lastPhase = null;
let finished = false;
/** The run that just ended, shown on the completion view until Done. */
let ended = null;
/** The saved sits, and the one a deep link chose ({ preset: id } or { quick: true }). */
let presets = [];
let arranging = false; // the saved sits show ↑ and ↓ to put them in another order
let linked = null;
/** The lock screen's words for the running sit, as the server says them ({ title, album }). */
let named = null;
/**
 * The saved sit being edited (its form, from GET /meditation/form?preset=ID), or null. While it
 * is, `plan` and `form` are its own and the quick sit's wait in `quick`, untouched.
 */
let editing = null;
let quick = null;
/** Whether "More options" is open (kept across re-renders). */
let optionsOpen = false;
/** The server was out of reach when the page loaded: the sits kept on this device are shown. */
let away = false;
/** The lengths one tap away under the duration (minutes; those outside the form's bounds are left out). */
const USUAL_MINUTES = [5, 10, 15, 20, 30, 45, 60];

export async function mount(view) {
  root = view;
  // The saved sit (the server answers the core's defaults for a new person).
  let formView, amb;
  try {
    [formView, amb] = await Promise.all([api('/meditation/form'), api('/ambient').catch(() => ({ sounds: [] })), loadOwnBeds(), loadPresets()]);
  } catch (error) {
    if (!unreached(error)) throw error;
    away = true;
    render();
    return;
  }
  away = false;
  form = formView;
  plan = formView.plan;
  ambient = amb.sounds || [];
  together.onChange(render);
  await together.loadInvitations();
  await restore();
  openLink();
  render();
  focusLink();
}

/** The person's saved sits (GET /meditation/presets), each with the server's summary line. */
async function loadPresets() {
  try {
    presets = (await api('/meditation/presets')).presets || [];
  } catch (error) {
    console.warn(error);
    presets = [];
  }
}

/**
 * A deep link opens a sit ready to start: `#meditate/preset/NAME` shows that saved sit chosen
 * (one tap starts it); `#meditate?minutes=20&interval=5` fills the quick sit.
 */
function openLink() {
  linked = null;
  const hash = decodeURIComponent(location.hash.replace(/^#/, ''));
  const named = hash.match(/^meditate\/preset\/(.+)$/);
  if (named) {
    const wanted = named[1].trim().toLowerCase();
    const preset = presets.find((p) => p.name.toLowerCase() === wanted || p.id === wanted);
    if (preset) linked = { preset: preset.id };
    return;
  }
  const query = hash.match(/^meditate\?(.*)$/);
  if (!query) return;
  const params = new URLSearchParams(query[1]);
  const minutes = Number(params.get('minutes'));
  if (Number.isFinite(minutes) && minutes > 0) plan = { ...plan, durationMs: Math.round(minutes) * 60000, isOpenEnded: false };
  const interval = params.get('interval');
  const choice = interval && form.intervalChoices.find((c) => c.text === interval);
  if (choice) {
    form = { ...form, interval: choice };
    plan = { ...plan, intervalGongs: choice.gongs };
  }
  linked = { quick: true };
}

function focusLink() {
  if (!linked || !root) return;
  // A saved sit's link shows that sit with its own Start; the quick sit's, the form's Start.
  const target = root.querySelector('#m-start');
  if (target) {
    target.scrollIntoView({ block: 'center' });
    target.focus();
  }
}

/**
 * After a reload (or in a second tab), picks up the newest sit the server still runs: its
 * timeline and elapsed time. A sit that ended meanwhile was logged by the server.
 */
async function restore() {
  try {
    const state = await runningRun('meditation');
    if (!state) return;
    run = state;
    timeline = withOwnBed(state.timeline, storedRunBed(state.id));
    finished = false;
    if (state.status === 'paused') player.showPaused(run.id, timeline, state.elapsedMs || 0, session());
    else player.play(run.id, timeline, state.elapsedMs || 0, session());
    clearInterval(ticker);
    ticker = setInterval(tick, 250);
    setTimeout(() => {
      tick();
      const button = root.querySelector('#m-pause');
      if (button && state.status === 'paused') button.textContent = t('action.resume');
    }, 0);
  } catch (error) {
    console.error(error);
  }
}

export async function remount() {
  // The choices' labels come in the app's language: ask again after a language change.
  try {
    const view = await api(`/meditation/form?interval=${encodeURIComponent(form.interval.text)}`);
    form = { ...view, plan };
  } catch (error) {
    console.warn(error);
  }
  render();
}

// Found out of reach, the page asks again when the browser is back online.
askAgainWhenOnline(() => root, () => (away ? show() : Promise.resolve()));

/** Back on the tab: the own beds may have changed in the Library; the form shows them. */

export async function show() {
  if (away) {
    // The server may be reached again: the page as it is online, unless a sit plays here.
    if (!(run && !finished) && !ended) await mount(root).catch(console.error);
    return;
  }
  const before = JSON.stringify([ownBeds.map((b) => [b.id, b.name]), presets]);
  await Promise.all([loadOwnBeds(), loadPresets()]);
  const wasLinked = JSON.stringify(linked);
  openLink();
  const changed = JSON.stringify([ownBeds.map((b) => [b.id, b.name]), presets]) !== before || JSON.stringify(linked) !== wasLinked;
  if (changed && !(run && !finished) && !ended) render();
  focusLink();
}

async function loadOwnBeds() {
  try {
    const query = `?locale=${encodeURIComponent(locale())}`;
    ownBeds = (await api(`/library/ambient${query}`)).items || [];
  } catch (error) {
    console.warn(error);
    ownBeds = [];
  }
}

function storage(kind) {
  try { return kind === 'session' ? window.sessionStorage : window.localStorage; } catch { return null; }
}

/** The own bed chosen for run `runID` (kept so a reload plays it again), or null. */
function storedRunBed(runID) {
  try {
    const saved = JSON.parse(storage('local')?.getItem(RUN_BED_KEY) || 'null');
    return saved && saved.runID === runID ? saved.ambient : null;
  } catch { return null; }
}

/** `timeline` with an own bed (`{ id, volume, src }`) the browser plays, or as it is. */
function withOwnBed(tl, bedAmbient) {
  if (!tl || !bedAmbient) return tl;
  return { ...tl, ambient: bedAmbient };
}

export function hide() { /* the run keeps going in the background */ }

function field(id, labelKey, control, unitKey) {
  return labelled(id, t(labelKey), control, unitKey && t(unitKey));
}

/** A number input with the bounds of the catalog's field `bounds` (the core's MeditationPlan). */
function numberInput(id, value, bounds, unitKey) {
  const input = el('input', { type: 'number', id, name: id, ...boundAttributes(bounds), value, inputmode: 'numeric', required: '' });
  if (unitKey) input.setAttribute('aria-describedby', `${id}-unit`);
  return input;
}

function render() {
  if (!root) return;
  root.replaceChildren();
  root.append(el('h1', { id: 'h-meditate' }, t('nav.meditate')));
  // Sitting together (js/together.js): its card on top; while in a session, nothing else.
  const togetherCard = !(run && !finished) && together.card();
  if (togetherCard) root.append(togetherCard);
  if (togetherCard && together.state.room) return;
  const linkedPreset = linked && linked.preset && !editing && presets.find((p) => p.id === linked.preset);
  if (run && !finished) renderPlayer();
  else if (ended) renderEnd();
  else if (away) root.append(keptCard('meditation', 'm', startKept));
  else if (linkedPreset) renderLinked(linkedPreset);
  else renderForm();
}

/**
 * A deep link to a saved sit (`#meditate/preset/Zazen`): that sit, large, with the one Start
 * that starts it, and a way to the other sits.
 */
function renderLinked(preset) {
  const error = el('p', { class: 'error', id: 'm-error', role: 'alert', hidden: '' });
  const startButton = el('button', { type: 'button', class: 'primary large', id: 'm-start', 'data-preset': preset.id }, t('action.start'));
  startButton.addEventListener('click', () => {
    player.unlock();
    startPreset(preset).catch((failure) => { error.textContent = localizeError(failure); error.hidden = false; });
  });
  const edit = el('button', { type: 'button', class: 'secondary', id: 'm-edit' }, t('action.edit'));
  edit.addEventListener('click', () => editPreset(preset).catch(console.error));
  const others = el('a', { class: 'button secondary', id: 'm-all-sits', href: '#meditate' }, t('meditate.allSits'));
  root.append(el('section', { class: 'card start-card linked-sit', 'aria-labelledby': 'm-linked-title' },
    el('h2', { id: 'm-linked-title', class: 'long-text' }, preset.name),
    el('p', { class: 'plan-summary' }, preset.summary),
    error,
    el('div', { class: 'actions start-bar' }, startButton),
    el('div', { class: 'actions quiet-actions' }, edit, others)));
}

/** Opens saved sit `preset` in the form for editing: its name and every setting. */
async function editPreset(preset) {
  const view = await api(`/meditation/form?preset=${encodeURIComponent(preset.id)}`);
  if (!editing) quick = { plan, form };
  editing = preset;
  form = view;
  plan = view.plan;
  optionsOpen = true;
  render();
  root.querySelector('#m-save-name')?.focus();
}

/** Back to the quick sit as it was before editing. */
function stopEditing() {
  if (quick) ({ plan, form } = quick);
  quick = null;
  editing = null;
}

/** The completion view of the sit that just ended, until Done. */
function renderEnd() {
  root.append(endView({
    prefix: 'm',
    kind: 'meditation',
    run: ended,
    doneText: endingText(),
    onDone: () => {
      ended = null;
      render();
      (root.querySelector('#m-start') || root.querySelector('#m-kept-title'))?.focus();
      // Played while the server was out of reach: it may be back.
      if (away) show().catch(console.error);
    },
  }));
}

function renderForm() {
  const intervalSelect = el('select', { id: 'm-interval', name: 'interval' });
  for (const choice of form.intervalChoices) {
    intervalSelect.append(el('option', { value: choice.text, ...(choice.text === form.interval.text ? { selected: '' } : {}) }, choice.label));
  }
  // Other gong times ("25, 30"): read by the server as `settings set meditation.interval` does.
  const custom = el('input', { type: 'text', id: 'm-interval-custom', name: 'intervalCustom', autocomplete: 'off', inputmode: 'decimal', value: form.interval.gongs.mode === 'offsets' ? form.interval.text.replaceAll(',', ', ') : '' });
  // Typed gongs are read by the server when the field is left, and the choice list follows — in
  // place, so whatever the person moved on to keeps its focus and its typing.
  // Read as soon as they are typed; a refusal then stands beside them without taking the cursor
  // from the field the person has moved on to (Start or Save gives it back to the gongs).
  custom.addEventListener('change', () => { readCustomGongs({ focus: false }).catch(console.error); });
  const ambientSelect = el('select', { id: 'm-ambient', name: 'ambient' });
  const lang = language();
  const own = storage('local')?.getItem(OWN_BED_KEY);
  const chosenOwn = plan.ambientID === 'silent' && own && ownBeds.some((b) => `${LIBRARY_PREFIX}${b.id}` === own) ? own : null;
  for (const s of ambient) {
    ambientSelect.append(el('option', { value: s.id, ...(!chosenOwn && s.id === plan.ambientID ? { selected: '' } : {}) }, (s.name && (s.name[lang] || s.name.en)) || s.id));
  }
  if (ownBeds.length) {
    const group = el('optgroup', { label: t('meditate.ambientOwn') });
    for (const b of ownBeds) {
      const value = `${LIBRARY_PREFIX}${b.id}`;
      group.append(el('option', { value, ...(value === chosenOwn ? { selected: '' } : {}) }, b.name));
    }
    ambientSelect.append(group);
  }
  const volume = el('input', { type: 'range', id: 'm-volume', name: 'volume', min: 0, max: 100, step: 5, value: Math.round(plan.ambientVolume * 100) });
  volume.setAttribute('aria-valuetext', `${volume.value} %`);
  volume.addEventListener('input', () => volume.setAttribute('aria-valuetext', `${volume.value} %`));
  const openEnded = el('input', { type: 'checkbox', id: 'm-open', name: 'open', ...(plan.isOpenEnded ? { checked: '' } : {}) });

  const bounds = fieldBounds('meditation.durationMinutes');
  const minutes = numberInput('m-minutes', Math.max(bounds.min, Math.round(plan.durationMs / 60000)), 'meditation.durationMinutes');
  minutes.classList.add('big-number');
  minutes.setAttribute('aria-describedby', 'm-minutes-unit');
  // Named by aria-label: a visually hidden <label> counts as hidden for axe.
  minutes.setAttribute('aria-label', t('settings.meditation.duration'));
  // A thumb-sized length: − and + by a minute, and the usual lengths one tap away.
  const step = (by) => {
    const now = Number(minutes.value) || bounds.min;
    minutes.value = String(Math.min(bounds.max, Math.max(bounds.min, now + by)));
    minutes.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const less = el('button', { type: 'button', class: 'secondary round', id: 'm-less', 'aria-label': t('meditate.minuteLess') }, '−');
  const more = el('button', { type: 'button', class: 'secondary round', id: 'm-more', 'aria-label': t('meditate.minuteMore') }, '+');
  less.addEventListener('click', () => step(-1));
  more.addEventListener('click', () => step(1));
  const chips = el('div', { class: 'chips', role: 'group', 'aria-label': t('meditate.usualLengths') });
  for (const length of USUAL_MINUTES.filter((m) => m >= bounds.min && m <= bounds.max)) {
    const chip = el('button', { type: 'button', class: 'chip', 'data-minutes': length }, `${length}`);
    chip.addEventListener('click', () => {
      minutes.value = String(length);
      minutes.dispatchEvent(new Event('input', { bubbles: true }));
    });
    chips.append(chip);
  }
  const markChip = () => {
    for (const chip of chips.children) chip.setAttribute('aria-pressed', String(chip.dataset.minutes === minutes.value));
  };
  minutes.addEventListener('input', markChip);
  markChip();
  const more_ = el('details', { id: 'm-options', ...(optionsOpen ? { open: '' } : {}) },
    el('summary', {}, el('span', {}, t('meditate.moreOptions')), el('span', { class: 'muted options-now', id: 'm-options-now' })),
    el('div', { class: 'form-grid' },
      field('m-countdown', 'settings.meditation.countdown', numberInput('m-countdown', Math.round(plan.countdownMs / 1000), 'meditation.countdownSeconds'), 'meditate.secondsUnit'),
      field('m-interval', 'settings.meditation.interval', intervalSelect),
      field('m-interval-custom', 'meditate.intervalCustom', custom, 'meditate.minutesUnit'),
      field('m-reflection', 'settings.meditation.reflection', numberInput('m-reflection', Math.round(plan.reflectionMs / 60000), 'meditation.reflectionMinutes'), 'meditate.minutesUnit'),
      field('m-ambient', 'settings.meditation.ambient', ambientSelect),
      field('m-volume', 'settings.meditation.volume', volume),
    ),
    el('a', { class: 'button secondary', id: 'm-download', download: 'meditation.wav', href: '#' }, t('meditate.download')),
    saveForm(),
  );
  more_.addEventListener('toggle', () => { optionsOpen = more_.open; });
  // What the closed options hold, in their own words: "every 5 min · Rain".
  const showOptions = () => {
    const chosen = (select) => select.selectedOptions[0] ? select.selectedOptions[0].textContent : '';
    const parts = [`${t('settings.meditation.interval')}: ${chosen(intervalSelect)}`];
    if (ambientSelect.value !== 'silent') parts.push(chosen(ambientSelect));
    more_.querySelector('#m-options-now').textContent = parts.filter(Boolean).join(' · ');
  };
  more_.addEventListener('change', showOptions);
  showOptions();
  // novalidate: the server checks the plan and its message comes in the app's language; the
  // browser's own bubble ("Value must be less than or equal to 60") follows the browser's.
  const formNode = el('form', { class: 'form card quick-sit', id: 'meditate-form', novalidate: true },
    el('h2', { id: 'm-quick-title', class: 'long-text' }, editing ? t('meditate.editSit', { name: editing.name }) : t('meditate.quickSit')),
    el('div', { class: 'duration-control' },
      less,
      minutes,
      el('span', { class: 'unit', id: 'm-minutes-unit', 'aria-hidden': 'true' }, t('meditate.minutesUnit')),
      more),
    chips,
    el('label', { class: 'check', for: 'm-open' }, openEnded, el('span', {}, t('settings.meditation.openEnded'))),
    more_,
    el('p', { class: 'error', id: 'm-error', role: 'alert', hidden: '' }),
    editing ? editActions() : el('div', { class: 'actions start-bar' },
      el('button', { type: 'submit', class: 'primary large', id: 'm-start' }, t('action.start')),
      el('button', { type: 'button', class: 'large', id: 'm-together' }, t('together.start')),
    ),
  );
  const state = el('p', { class: 'muted' }, t('state.idle'));
  const updateDownload = () => {
    const p = serverPlan(readForm(formNode));
    const link = formNode.querySelector('#m-download');
    link.hidden = p.isOpenEnded;
    link.href = `/api/v1/render/meditation.wav?plan=${encodeURIComponent(JSON.stringify(p))}`;
  };
  formNode.addEventListener('input', updateDownload);
  intervalSelect.addEventListener('change', () => {
    form = { ...form, interval: form.intervalChoices.find((c) => c.text === intervalSelect.value) || form.interval };
    custom.value = form.interval.gongs.mode === 'offsets' ? form.interval.text.replaceAll(',', ', ') : '';
    updateDownload();
  });
  formNode.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!editing) player.unlock();
    submit(formNode).catch((error) => showFormError(error));
  });
  formNode.querySelector('#m-together')?.addEventListener('click', () => {
    together.start({ kind: 'meditation', plan: serverPlan(readForm(formNode)) }).catch((error) => showFormError(error));
  });
  if (!editing) {
    root.append(state);
    if (presets.length) root.append(savedSits());
  }
  root.append(formNode);
  updateDownload();
}

function readForm(formNode) {
  const v = (id) => Number(formNode.querySelector(`#${id}`).value);
  const chosen = form.intervalChoices.find((c) => c.text === formNode.querySelector('#m-interval').value) || form.interval;
  return {
    durationMs: Math.round(v('m-minutes') * 60000),
    countdownMs: Math.round(v('m-countdown') * 1000),
    reflectionMs: Math.round(v('m-reflection') * 60000),
    intervalGongs: chosen.gongs,
    ambientID: formNode.querySelector('#m-ambient').value || 'silent',
    ambientVolume: v('m-volume') / 100,
    isOpenEnded: formNode.querySelector('#m-open').checked,
  };
}

/**
 * Reads the typed gongs ("25, 30") through the server and makes them the chosen interval, in
 * place. Resolves false (with the server's sentence beside the field) when they cannot be read.
 */
async function readCustomGongs({ focus = true } = {}) {
  const formNode = root.querySelector('#meditate-form');
  const custom = formNode && formNode.querySelector('#m-interval-custom');
  if (!custom) return true;
  const typed = custom.value.trim();
  const select = formNode.querySelector('#m-interval');
  if (!typed || typed.replaceAll(' ', '') === select.value) return true;
  try {
    const view = await api(`/meditation/form?interval=${encodeURIComponent(typed)}`);
    form = { ...form, interval: view.interval, intervalChoices: view.intervalChoices };
    select.replaceChildren(...form.intervalChoices.map((choice) => el('option', { value: choice.text }, choice.label)));
    select.value = form.interval.text;
    clearRefusals(formNode, formNode.querySelector('#m-error'));
    formNode.dispatchEvent(new Event('change', { bubbles: true }));
    formNode.dispatchEvent(new Event('input', { bubbles: true }));
    return true;
  } catch (error) {
    showFormError({ ...error, message: error.message, status: error.status, code: error.code, field: 'intervalCustom' }, { focus });
    return false;
  }
}

/** Start (the quick sit) or Save (a saved sit being edited), once every field is readable. */
async function submit(formNode) {
  const local = numberRefusal(formNode);
  if (local) return showFormError(local);
  if (!(await readCustomGongs())) return;
  if (editing) return saveEdit(formNode);
  return start(readForm(formNode));
}

/** The control a refusal's field (`durationMs`, `plan.intervalGongs`, `name`) is about. */
function controlFor(path) {
  const name = String(path).split('.').pop();
  const id = {
    durationMs: 'm-minutes', countdownMs: 'm-countdown', reflectionMs: 'm-reflection',
    intervalGongs: root.querySelector('#m-interval-custom')?.value.trim() ? 'm-interval-custom' : 'm-interval',
    intervalCustom: 'm-interval-custom', ambientID: 'm-ambient', ambientVolume: 'm-volume', name: 'm-save-name',
  }[name] || name;
  const control = root.querySelector(`#${CSS.escape(id)}`);
  // A field under the closed "More options" is shown before it is pointed at.
  const details = control && control.closest('details');
  if (details && !details.open) { details.open = true; optionsOpen = true; }
  return control;
}

function showFormError(error, options = {}) {
  // A refused plan (4xx) is the person's to fix and shows beside its field; only faults of the
  // app or the network belong in the console (errorText logs those).
  const formNode = root.querySelector('#meditate-form');
  const box = root.querySelector('#m-error');
  if (!formNode || !box) {
    if (box) { box.textContent = localizeError(error); box.hidden = false; }
    return;
  }
  showRefusal(formNode, error, controlFor, box, options);
}

/** The plan as the server takes it: an own bed is played by the browser, so it says `silent`. */
function serverPlan(p) {
  return p.ambientID.startsWith(LIBRARY_PREFIX) ? { ...p, ambientID: 'silent' } : p;
}

/** The own bed of plan `p` as a timeline's ambient (`src` streams it), or null. */
function ownBedAmbient(p) {
  if (!p.ambientID.startsWith(LIBRARY_PREFIX) || !(p.ambientVolume > 0)) return null;
  const id = p.ambientID.slice(LIBRARY_PREFIX.length);
  return { id: p.ambientID, volume: p.ambientVolume, src: `/api/v1/library/${encodeURIComponent(id)}/audio` };
}

/**
 * The saved sits as large cards: the name and the server's summary; a tap starts one. Arrange
 * (with two or more) shows ↑ and ↓ beside each instead of Edit, to put them in another order.
 */
function savedSits() {
  if (presets.length < 2) arranging = false;
  const list = el('ul', { class: arranging ? 'saved-sits arranging' : 'saved-sits' });
  presets.forEach((preset, index) => {
    const chosen = linked && linked.preset === preset.id;
    const card = el('button', { type: 'button', class: chosen ? 'saved-sit chosen' : 'saved-sit', id: `m-preset-${preset.id}`, 'data-name': preset.name, ...(chosen ? { 'aria-current': 'true' } : {}) },
      el('span', { class: 'saved-name' }, preset.name),
      el('span', { class: 'saved-summary' }, preset.summary));
    card.addEventListener('click', () => {
      player.unlock();
      startPreset(preset).catch((error) => showFormError(error));
    });
    if (arranging) {
      const move = (delta, key, symbol) => {
        const button = el('button', { type: 'button', class: 'secondary icon-button saved-move', id: `m-move-${delta < 0 ? 'up' : 'down'}-${preset.id}`, 'aria-label': t(key, { name: preset.name }) }, symbol);
        const target = index + delta;
        if (target < 0 || target >= presets.length) button.disabled = true;
        button.addEventListener('click', () => movePreset(preset, target, delta).catch((error) => showFormError(error)));
        return button;
      };
      list.append(el('li', {}, card, el('div', { class: 'saved-moves' }, move(-1, 'meditate.moveUp', '↑'), move(1, 'meditate.moveDown', '↓'))));
    } else {
      const edit = el('button', { type: 'button', class: 'secondary saved-edit', id: `m-edit-${preset.id}`, 'aria-label': t('meditate.editSit', { name: preset.name }) }, t('action.edit'));
      edit.addEventListener('click', () => editPreset(preset).catch(console.error));
      list.append(el('li', {}, card, edit));
    }
  });
  const title = el('h2', { id: 'm-saved-title' }, t('meditate.savedSits'));
  let head = title;
  if (presets.length > 1 && !editing) {
    const arrange = el('button', { type: 'button', class: 'secondary small', id: 'm-arrange', 'aria-pressed': arranging ? 'true' : 'false' }, t(arranging ? 'meditate.arrangeDone' : 'meditate.arrange'));
    arrange.addEventListener('click', () => {
      arranging = !arranging;
      render();
      root.querySelector('#m-arrange')?.focus();
    });
    head = el('div', { class: 'saved-head' }, title, arrange);
  }
  return el('section', { class: 'saved', 'aria-labelledby': 'm-saved-title' }, head, list);
}

/** Moves a saved sit to place `target` (PATCH position); focus stays on the arrow that moved it. */
async function movePreset(preset, target, delta) {
  const saved = await api(`/meditation/presets/${encodeURIComponent(preset.id)}`, { method: 'PATCH', body: { position: target } });
  await loadPresets();
  render();
  const place = presets.findIndex((p) => p.id === saved.id);
  announce(t('meditation.presetMoved', { name: saved.name, place: place + 1, count: presets.length }));
  const same = root.querySelector(`#m-move-${delta < 0 ? 'up' : 'down'}-${CSS.escape(saved.id)}`);
  const other = root.querySelector(`#m-move-${delta < 0 ? 'down' : 'up'}-${CSS.escape(saved.id)}`);
  (same && !same.disabled ? same : other)?.focus();
}

/** "Save as a saved sit": the quick sit's settings under a name (POST /meditation/presets). */
function saveForm() {
  // No maxlength: a name over the limit is refused with the limit, never cut while typing.
  const name = el('input', { type: 'text', id: 'm-save-name', name: 'presetName', autocomplete: 'off', value: editing ? editing.name : '' });
  if (editing) return el('div', { class: 'save-sit' }, field('m-save-name', 'meditate.sitName', name));
  const save = el('button', { type: 'button', class: 'secondary', id: 'm-save' }, t('meditate.saveSit'));
  save.addEventListener('click', async () => {
    const formNode = root.querySelector('#meditate-form');
    try {
      const local = numberRefusal(formNode);
      if (local) return showFormError(local);
      if (!(await readCustomGongs())) return;
      const saved = await api('/meditation/presets', { method: 'POST', body: { name: name.value.trim(), plan: serverPlan(readForm(formNode)) } });
      await loadPresets();
      render();
      announce(t('meditate.sitSaved', { name: saved.name }));
      root.querySelector(`#m-preset-${saved.id}`)?.focus();
    } catch (error) {
      showFormError(error);
    }
  });
  return el('div', { class: 'save-sit' }, field('m-save-name', 'meditate.saveName', name), save);
}

/** The editor's buttons: save the changes, delete the sit, or go back to the quick sit. */
function editActions() {
  const save = el('button', { type: 'submit', class: 'primary', id: 'm-save-edit' }, t('action.save'));
  const remove = el('button', { type: 'button', class: 'secondary danger', id: 'm-delete' }, t('action.delete'));
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'm-cancel-edit' }, t('action.cancel'));
  remove.addEventListener('click', () => deletePreset(editing).catch((error) => showFormError(error)));
  cancel.addEventListener('click', () => {
    const id = editing.id;
    stopEditing();
    render();
    root.querySelector(`#m-edit-${CSS.escape(id)}`)?.focus();
  });
  return el('div', { class: 'actions' }, save, remove, cancel);
}

/** Saves the edited sit (PATCH: its name and whole plan, both checked before either is kept). */
async function saveEdit(formNode) {
  const name = formNode.querySelector('#m-save-name').value.trim();
  const saved = await api(`/meditation/presets/${encodeURIComponent(editing.id)}`, { method: 'PATCH', body: { name, plan: serverPlan(readForm(formNode)) } });
  stopEditing();
  await loadPresets();
  if (linked && linked.preset === saved.id) linked = { preset: saved.id };
  render();
  announce(t('meditate.sitChanged', { name: saved.name }));
  (root.querySelector(`#m-preset-${CSS.escape(saved.id)}`) || root.querySelector('#m-start'))?.focus();
}

async function deletePreset(preset) {
  if (!(await confirmDialog(t('meditate.confirmDeleteSit', { name: preset.name }), t('action.delete'), t('action.cancel')))) return;
  await api(`/meditation/presets/${encodeURIComponent(preset.id)}`, { method: 'DELETE' });
  stopEditing();
  if (linked && linked.preset === preset.id) linked = null;
  await loadPresets();
  render();
  announce(t('meditate.sitDeleted', { name: preset.name }));
  root.querySelector('#m-start')?.focus();
}

async function startPreset(preset) {
  run = await api('/runs', { method: 'POST', body: { kind: 'meditation', preset: preset.id } });
  // The quick sit stays as it was: a saved sit is its own (the core's rule, MeditationPlan.lastSit).
  named = sessionWords(run);
  // Done leads back to Meditate itself, not to the link that started this sit.
  linked = null;
  if (/^#meditate\//.test(location.hash)) history.replaceState(null, '', '#meditate');
  storage('local')?.removeItem(RUN_BED_KEY);
  timeline = run.timeline;
  begin();
}

/** Starts a sit kept on this device (the server out of reach): `local`, a local run's view. */
function startKept(local) {
  player.unlock();
  run = local;
  named = sessionWords(run);
  linked = null;
  timeline = run.timeline;
  begin();
}

async function start(newPlan) {
  const sent = serverPlan(newPlan);
  const tl = await api('/meditation/timeline', { method: 'POST', body: sent });
  plan = sent;
  const local = storage('local');
  if (newPlan.ambientID.startsWith(LIBRARY_PREFIX)) local?.setItem(OWN_BED_KEY, newPlan.ambientID);
  else local?.removeItem(OWN_BED_KEY);
  run = await api('/runs', { method: 'POST', body: { kind: 'meditation', plan } });
  const bedAmbient = ownBedAmbient(newPlan);
  if (bedAmbient) local?.setItem(RUN_BED_KEY, JSON.stringify({ runID: run.id, ambient: bedAmbient }));
  else local?.removeItem(RUN_BED_KEY);
  timeline = withOwnBed(run.timeline || tl, bedAmbient);
  linked = null;
  named = sessionWords(run);
  begin();
}

/** The run has started on the server: show the player and play its sound. */
function begin() {
  finished = false;
  lastPhase = null;
  render();
  // The run's sound streams from the server; the clock and ring start at once.
  player.play(run.id, timeline, 0, session());
  clearInterval(ticker);
  ticker = setInterval(tick, 250);
  tick();
  root.querySelector('#m-pause')?.focus();
}

/** What the lock screen says of run `r`: its name (or "Meditation") and the server's one line. */
function sessionWords(r) {
  return { title: r.name || t('kind.meditation'), album: r.summary || '' };
}

/** The lock screen's words for this sit and its buttons (player.js shows them). */
function session() {
  const words = named || (run ? sessionWords(run) : { title: t('kind.meditation'), album: '' });
  return {
    title: words.title,
    album: words.album,
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
  svg.setAttribute('class', 'ring');
  svg.setAttribute('role', 'img');
  svg.setAttribute('id', 'm-ring');
  const circle = (cls) => {
    const c = document.createElementNS(svgNS, 'circle');
    c.setAttribute('cx', '50'); c.setAttribute('cy', '50'); c.setAttribute('r', '45'); c.setAttribute('class', cls);
    return c;
  };
  const track = circle('track');
  const arc = circle('arc');
  arc.setAttribute('stroke-dasharray', RING.toFixed(2));
  arc.setAttribute('stroke-dashoffset', '0');
  const text = (cls, y) => {
    const node = document.createElementNS(svgNS, 'text');
    node.setAttribute('x', '50'); node.setAttribute('y', y); node.setAttribute('text-anchor', 'middle'); node.setAttribute('class', cls);
    return node;
  };
  const time = text('time', '54');
  const phase = text('phase', '66');
  svg.append(track, arc, time, phase);

  const pause = el('button', { type: 'button', class: 'primary', id: 'm-pause' }, t('action.pause'));
  const stop = el('button', { type: 'button', class: 'secondary', id: 'm-stop' }, t('action.stop'));
  pause.addEventListener('click', () => { player.unlock(); togglePause().catch(console.error); });
  stop.addEventListener('click', () => requestStop().catch(console.error));
  // Shown while a guided meditation from the Library holds the sound (sound-focus.js).
  const resumeAmbient = el('button', { type: 'button', class: 'secondary', id: 'm-ambient-resume', hidden: '' }, t('meditate.ambientResume'));
  resumeAmbient.addEventListener('click', () => { player.resumeAmbient(); tick(); });
  root.append(el('div', { class: 'player card' },
    svg,
    el('p', { class: 'affirmation', id: 'm-affirmation' }),
    el('p', { class: 'muted', id: 'm-ambient-note', role: 'status' }),
    el('div', { class: 'actions' }, pause, stop, resumeAmbient),
    player.runExtras('m'),
  ));
}

function segmentAt(ms) {
  const segs = timeline.segments || [];
  let current = segs[0];
  for (const s of segs) if (ms >= s.startMs) current = s;
  return current;
}

function phaseKey(kind) {
  return { countdown: 'phase.countdown', meditation: 'phase.meditation', reflection: 'phase.reflection' }[kind] || 'phase.meditation';
}

function tick() {
  if (!run || finished || !root) return;
  const elapsed = player.elapsedMs();
  const total = timeline.totalMs;
  const seg = segmentAt(elapsed);
  const paused = player.state.state === 'paused';
  const phase = paused ? 'paused' : seg ? seg.kind : 'meditation';
  // The countdown shows its own seconds; then the sit's time left (or, open-ended, its time so far).
  const counting = phase === 'countdown' && seg;
  const remaining = counting ? Math.max(0, seg.startMs + seg.durationMs - elapsed) : total == null ? null : Math.max(0, total - elapsed);
  const shown = remaining == null ? clock(elapsed) : clock(remaining);
  const phaseText = paused ? t('player.pausedMark') : t(phaseKey(phase));

  const ring = root.querySelector('#m-ring');
  if (ring) {
    const fraction = total ? Math.min(1, elapsed / total) : 0;
    ring.querySelector('.arc').setAttribute('stroke-dashoffset', (RING * fraction).toFixed(2));
    ring.querySelector('.time').textContent = shown;
    ring.querySelector('.phase').textContent = phaseText;
    ring.setAttribute('aria-label', `${phaseText}: ${remaining == null ? t('player.elapsed', { time: shown }) : t('player.remaining', { time: shown })}`);
  }
  const aff = root.querySelector('#m-affirmation');
  if (aff) {
    const a = run.affirmations || {};
    aff.textContent = paused ? t('state.paused') : phase === 'countdown' ? (a.countdown || '') : (a.running || '');
  }
  const note = root.querySelector('#m-ambient-note');
  const pausedBy = !paused && player.state.ambientPausedBy;
  const noteText = pausedBy ? t('meditate.ambientPausedByGuided') : '';
  if (note && note.textContent !== noteText) note.textContent = noteText;
  const resumeAmbient = root.querySelector('#m-ambient-resume');
  if (resumeAmbient) resumeAmbient.hidden = !pausedBy;
  document.title = `${shown} · ${phaseText} · ${t('app.name')}`;
  if (phase !== lastPhase) {
    lastPhase = phase;
    announce(phaseText);
  }
  if (total != null && elapsed >= total && !paused) finish(true).catch(console.error);
}

// The sound pauses and resumes at once (inside the tap, as a phone requires); the server is
// told the instant after.
async function togglePause() {
  const button = root.querySelector('#m-pause');
  if (player.state.state === 'running') {
    player.pause();
    if (button) button.textContent = t('action.resume');
    tick();
    run = { ...run, ...(await reportRun(run.id, 'pause')) };
  } else if (player.state.state === 'paused') {
    player.resume();
    if (button) button.textContent = t('action.pause');
    tick();
    run = { ...run, ...(await reportRun(run.id, 'resume')) };
  }
  tick();
}

/** Stop asks once (runs.js): the run pauses while asked; "Keep going" plays on. */
async function requestStop() {
  if (!run || finished) return;
  const answer = await askToStop(run.id, root.querySelector('#m-pause'));
  if (answer && run && !finished) await finish(false, answer.keep);
}

async function finish(completed, keep = true) {
  if (finished || !run) return;
  finished = true;
  clearInterval(ticker);
  // A sit that reached its end plays on to the stream's end: the end gong rings out.
  player.stop({ ringOut: completed });
  try {
    run = { ...run, ...(await stopRun(run.id, { keep, completed })) };
  } catch (error) {
    console.error(error);
  }
  document.title = t('app.name');
  ended = run;
  announce([endingText(), run.ending && run.ending.soundText].filter(Boolean).join(' '));
  render();
  focusEnd(root, 'm');
}

/** What the sit came to, in the server's words ("Logged 20 min of meditation."). */
function endingText() {
  const ending = run && run.ending;
  return ending && ending.text ? ending.text : t('state.stopped');
}
