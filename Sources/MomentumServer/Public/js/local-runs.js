// Practices played on this device with the server out of reach (docs/offline.md): a run whose
// id is made here, whose sound is the one kept for it (`/offline/audio/{key}`, answered by the
// service worker) and whose start, pauses, resumes and stop are noted with their instants. When
// it ends it becomes a run report (js/outbox.js), which the server logs by the one rule of every
// run once it is reached. The pages play a local run as any other: runs.js and player.js ask
// here whether a run is local.
import { newID } from './api.js';

/** The local runs of this page: id → { key, name, practice, steps }. */
const runs = new Map();

// Each local run is also written to localStorage with the instant the page was last seen playing
// it (every few seconds, and as the page goes away), so one whose page was closed, reloaded or
// killed mid-practice is not lost: the next page reports it as stopped then (`leftBehind`). Each
// run has a key of its own, so two tabs never write back each other's runs.
const KEY_PREFIX = 'momentum.localRun.';
const OLD_KEY = 'momentum.localRuns'; // all runs in one key, before v17
const HEARTBEAT_MS = 5000;
/** A run not seen for this long belongs to no open page (one that is open writes every 5 s). */
const ABANDONED_MS = 20000;
let heartbeat = null;

/** Every local run on this device: id → run. */
function stored() {
  const all = {};
  try {
    const old = JSON.parse(localStorage.getItem(OLD_KEY) || '{}');
    if (old && typeof old === 'object') {
      for (const [id, run] of Object.entries(old)) localStorage.setItem(KEY_PREFIX + id, JSON.stringify(run));
    }
    localStorage.removeItem(OLD_KEY);
  } catch { /* nothing older to move */ }
  for (let index = 0; index < localStorage.length; index += 1) {
    const key = localStorage.key(index);
    if (!key || !key.startsWith(KEY_PREFIX)) continue;
    try {
      const run = JSON.parse(localStorage.getItem(key));
      if (run && typeof run === 'object') all[key.slice(KEY_PREFIX.length)] = run;
    } catch { /* a damaged entry is left alone */ }
  }
  return all;
}

// While a page plays a run it holds a Web Lock named after it; the browser lets it go when the
// page closes, crashes or is killed, whatever its timers did. So a run whose lock is held belongs
// to an open page — even a hidden one whose heartbeat the browser slowed to once a minute — and
// one whose lock is free was left behind, at once. (Without Web Locks the time rule above decides.)
const releases = new Map(); // run id → lets its lock go

function holdLock(id) {
  if (!navigator.locks) return;
  navigator.locks.request(KEY_PREFIX + id, () => new Promise((resolve) => releases.set(id, resolve)))
    .catch((error) => console.warn(error));
}

function releaseLock(id) {
  releases.get(id)?.();
  releases.delete(id);
}

/** The names of the locks open pages hold, or null without Web Locks. */
async function heldLocks() {
  if (!navigator.locks) return null;
  try {
    const { held } = await navigator.locks.query();
    return new Set(held.map((lock) => lock.name));
  } catch {
    return null;
  }
}

/** Writes this page's runs, seen now; other pages' runs are not touched. */
function save() {
  const seenAt = new Date().toISOString();
  for (const [id, run] of runs) {
    try {
      localStorage.setItem(KEY_PREFIX + id, JSON.stringify({ ...run, seenAt }));
    } catch { /* private mode or full: the run is kept in this page only */ }
  }
  if (runs.size && !heartbeat) heartbeat = setInterval(save, HEARTBEAT_MS);
  if (!runs.size && heartbeat) {
    clearInterval(heartbeat);
    heartbeat = null;
  }
}

/** Now, or the run's last step if the clock was set back since: steps never go back in time. */
function instantAfter(run) {
  const last = run.steps[run.steps.length - 1].at;
  const now = new Date().toISOString();
  return Date.parse(now) >= Date.parse(last) ? now : last;
}

/** Forgets local run `id` on this device: its report is kept in the outbox (or was discarded). */
export function forgetLocal(id) {
  drop(id);
}

function drop(id) {
  releaseLock(id);
  try {
    localStorage.removeItem(KEY_PREFIX + id);
  } catch { /* nothing kept */ }
}

window.addEventListener('pagehide', () => { if (runs.size) save(); });

/**
 * The local runs a page left behind: one that ended but whose report was not yet kept, and one
 * whose page was closed or killed while it played (seen last over 20 s ago), ended at the instant
 * it was last seen. Answers `{ ended: [{ name, report }], recheckMs }`, where `recheckMs` says
 * when a run seen too recently to judge should be looked at again (null when none). Each is
 * forgotten (`forgetLocal`) once its report is kept.
 */
export async function leftBehind(now = Date.now()) {
  const ended = [];
  let recheckMs = null;
  const held = await heldLocks();
  for (const [id, run] of Object.entries(stored())) {
    if (runs.has(id) || !run || !Array.isArray(run.steps) || !run.steps.length) continue;
    if (run.report) {
      ended.push({ name: run.name, report: run.report });
      continue;
    }
    const seen = Date.parse(run.seenAt);
    if (held && held.has(KEY_PREFIX + id)) {
      // Another open page plays it: looked at again later, should that page be killed.
      recheckMs = recheckMs === null ? ABANDONED_MS : Math.min(recheckMs, ABANDONED_MS);
      continue;
    }
    if (!held && Number.isFinite(seen) && now - seen < ABANDONED_MS) {
      const wait = ABANDONED_MS - (now - seen) + 1000;
      recheckMs = recheckMs === null ? wait : Math.min(recheckMs, wait);
      continue;
    }
    const last = run.steps[run.steps.length - 1].at;
    const stopAt = Number.isFinite(seen) && seen > Date.parse(last) ? run.seenAt : last;
    ended.push({ name: run.name, report: { id, practice: run.practice, steps: [...run.steps, { action: 'stop', at: stopAt }], keep: true } });
  }
  return { ended, recheckMs };
}

/**
 * Starts `prepared` (an entry of GET /runs/prepared: `key`, `name`, `practice`, `run`) now, on
 * this device. Answers the run view the pages show: the server's prepared view with this run's id.
 */
export function startLocal(prepared) {
  const id = newID();
  runs.set(id, {
    key: prepared.key, name: prepared.name, practice: prepared.practice,
    steps: [{ action: 'start', at: new Date().toISOString() }],
  });
  holdLock(id);
  save();
  return { ...prepared.run, id, status: 'running', name: prepared.name, local: true };
}

/** Whether run `id` plays on this device. */
export function isLocal(id) {
  return runs.has(id);
}

/** The kept sound's path of local run `id`, or null for a run the server plays. */
export function localSound(id) {
  const run = runs.get(id);
  return run ? `/offline/audio/${encodeURIComponent(run.key)}` : null;
}

/** Notes that local run `id` paused or resumed now (`action`: 'pause' | 'resume'). */
export function noteStep(id, action) {
  const run = runs.get(id);
  if (!run) return;
  const last = run.steps[run.steps.length - 1].action;
  // A pause of a paused run (or a resume of a running one) is not a step: the server would refuse it.
  if ((action === 'pause') === (last === 'pause')) return;
  run.steps.push({ action, at: instantAfter(run) });
  save();
}

/**
 * Ends local run `id` now into its report (the body of POST /runs/reports).
 * The stop is always noted: one after the timeline's end ends the run at its end (the core's
 * rule), and the server's clock need not agree with this device's about when that was.
 */
export function endLocal(id, { keep = true, soundInterruptions = [] } = {}) {
  const run = runs.get(id);
  if (!run) return null;
  runs.delete(id);
  const steps = [...run.steps, { action: 'stop', at: instantAfter(run) }];
  const report = {
    id, practice: run.practice, steps, keep,
    ...(soundInterruptions.length ? { soundInterruptions } : {}),
  };
  // Stored with its report until the outbox has it (`forgetLocal`): a page that dies in between
  // leaves it for the next one (`leftBehind`).
  try {
    localStorage.setItem(KEY_PREFIX + id, JSON.stringify({ ...run, steps, report }));
  } catch { /* private mode or full: the outbox keeps it from here */ }
  save();
  return { name: run.name, report };
}
