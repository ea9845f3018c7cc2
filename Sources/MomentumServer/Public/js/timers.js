// Timers: focus timers with checklists. Start / pause / resume / reset, add and delete items,
// delete a timer, make a new one. The server keeps the run as instants and answers with
// `remainingMs`; a running timer's clock counts that down from the moment of the answer, and
// the list is fetched again when it reaches zero (the server then reports it done).
//
// Live (js/live.js): a change of a timer or an item — from another device, or this page's own —
// fetches the list again; it is drawn again only when it differs from what is shown, never while
// the person types in one of its fields (then once they leave it), and what they typed but did
// not send stays. Each card says who changed the timer last, in words ("Changed by Anna's phone ·
// 2 minutes ago", "Changed in the terminal on laptop", "Changed in a browser"): GET
// /sync/last-change answers who (`by`, from the core's ChangeAuthor), fetched again for a timer
// a live change touched. A change made by this very browser (its name, js/api.js) shows nothing.
// "This device" at the end of the view names this browser (a small dialog; GET /device checks
// the name, which is kept in this browser only).
//
// A timer whose time is up shows "Done" at 00:00, here and, through the live feed, on the other
// devices; the change is announced once. Focus stays where the person was: on a ticked box
// through the redraw its echo may cause, on Start after Pause or Reset, back on the button that
// opened a dialog.
//
// In the background (js/focus-end.js): the running timer's end sound plays through an <audio>
// element, so its gong sounds on time with the screen locked; it follows every fetch of the list.
//
// Away from the server (docs/offline.md) the list is the one kept at the last fetch
// (js/timer-intents.js), said so with its time. Start, Pause, Reset and ticks on one's own timers
// still work: each is kept as an intent with its instant and sent once the server is reached,
// which applies it by the core's rules; until then the card shows the tap's effect. Making,
// editing and deleting timers and items need the server. No end sound plays offline.
import { api, thisDeviceName, setThisDeviceName } from './api.js';
import { t, clock, errorText, locale, boundAttributes, keptTime } from './i18n.js';
import { el, field, announce, confirmDialog, refocus } from './dom.js';
import { newTimerForm } from './timer-form.js';
import { onLive, whenNotTyping, keepingInput } from './live.js';
import * as endSound from './focus-end.js';
import { keepTimers, keptTimers, queueIntent, sendIntents, SENT_EVENT } from './timer-intents.js';
import { unreached, askAgainWhenOnline } from './offline-practice.js';
import { render as renderOutbox } from './outbox.js';

let root;
let timers = [];
let fetchedAt = 0;
let ticker = null;
let agoTicker = null;
let refreshing = false;
let shown = ''; // what the drawn list shows (see `snapshot`)
let away = false; // the server was not reached: the kept list is shown
let drawnAway = false; // whether the drawn list says so
let keptAt = 0; // when the shown kept list was the server's answer
let retry = null; // while away: asks the server again now and then
// The timer's fields whose last change the card names (not its sort order or creation time).
const CHANGE_FIELDS = ['name', 'durationMs', 'icon', 'color', 'notes', 'run'];
const lastChanges = new Map(); // timer id → { stamp, by } of its latest change, or null
const statuses = new Map(); // timer id → its status as last fetched (to announce a timer's end once)

export async function mount(view) { root = view; await render(); }
// The end sound's time is up, or its stream broke: fetch again, draw what differs, follow.
endSound.whenStale(() => { if (root) liveRefresh().catch(console.error); });
export const remount = (view) => { root = view; return render(); };
export const show = () => render();
export const hide = () => { clearInterval(ticker); ticker = null; clearInterval(agoTicker); agoTicker = null; };
askAgainWhenOnline(() => root, show);
// Intents sent (by the outbox, or a tap's own try): the list is the server's again.
window.addEventListener(SENT_EVENT, () => {
  renderOutbox();
  if (root && !root.hidden && root.isConnected) whenNotTyping(root, () => liveRefresh().catch(console.error));
});

onLive(['focusTimer', 'checklistItem'], ({ changes, refresh }) => {
  if (refresh) lastChanges.clear();
  // Who made it is asked anew (the server says it in words the catalog has, not the raw stamp).
  for (const change of changes) {
    if (change.type !== 'focusTimer' || (change.op === 'set' && !CHANGE_FIELDS.includes(change.field))) continue;
    lastChanges.delete(change.id);
  }
  if (!root || root.hidden || !root.isConnected) {
    // show() fetches anew; a sound playing meanwhile still follows a pause on another device.
    if (endSound.active()) load().then(() => endSound.follow(timers, fetchedAt)).catch(console.error);
    return;
  }
  whenNotTyping(root, () => liveRefresh().catch(console.error));
});

/** Fetches the list again after a live change; draws only what differs. */
async function liveRefresh() {
  if (!(await load())) return;
  if (!away) await loadLastChanges();
  if (snapshot() === shown && drawnAway === away) {
    updateChangedLines();
    restartTicker();
    if (!away) endSound.follow(timers, fetchedAt);
    return;
  }
  await keepingInput(root, () => draw());
}

/** The list as shown: a running timer's remaining time moves on its own, so it is left out. */
function snapshot() {
  return JSON.stringify(timers.map((x) => (x.status === 'running' ? { ...x, remainingMs: 0 } : x)));
}

/**
 * The path of a change to `timer` (every use sends one), remembering when this page sent it: a
 * browser without a name cannot be told from another by its stamps, so its own latest change is
 * known by its time and never shown as "Changed in a browser".
 */
const ownChanges = new Map();
const path = (timer, rest = '') => {
  ownChanges.set(timer.id, Date.now());
  return `/timers/${encodeURIComponent(timer.id)}${rest}`;
};

/** Whether the change stamped `stamp` to timer `id` is likely this page's own (sent within 10 s). */
function madeHere(id, stamp) {
  const sent = ownChanges.get(id);
  const at = Number(stamp.slice(0, 13));
  return sent != null && at >= sent - 2000 && at <= sent + 10000;
}

let loads = 0; // loads begun: only the newest one's answer is shown

/**
 * Fetches the list (or takes the kept one when the server is not reached). Answers false when a
 * newer load began meanwhile: its answer is the one to show (a load that failed offline must not
 * draw over one made once the connection was back).
 */
async function load() {
  const mine = ++loads;
  // What was done here offline goes first, so the list comes back with it.
  // try: a server not reached leaves it waiting; the list below says whether it is.
  await sendIntents().catch(() => 0);
  let data;
  let reached = true;
  try {
    data = await api('/timers');
  } catch (error) {
    if (mine !== loads) return false;
    data = unreached(error) && keptTimers();
    if (!data) throw error;
    reached = false;
  }
  if (mine !== loads) return false;
  away = !reached;
  let countedAt = Date.now();
  if (reached) {
    keepTimers(data.timers || []);
  } else {
    keptAt = data.serverAt;
    countedAt = data.countedAt;
  }
  timers = data.timers || [];
  // A kept running timer counts down from when it was counted.
  fetchedAt = performance.now() - (Date.now() - countedAt);
  // A timer that was running or paused and is done now: said once, on every device that shows it.
  for (const timer of timers) {
    const before = statuses.get(timer.id);
    if (timer.status === 'completed' && (before === 'running' || before === 'paused')) {
      announce(t('focus.completedTimer', { name: timer.name }));
    }
    statuses.set(timer.id, timer.status);
  }
  return true;
}

/** Fetches the timers and draws them; `focusId` is focused afterwards if it still exists. */
async function render(focusId, fallback) {
  if (!(await load())) return;
  if (!away) await loadLastChanges();
  draw(focusId, fallback);
}

function draw(focusId, fallback) {
  shown = snapshot();
  drawnAway = away;
  const listNode = el('ul', { class: 'timer-list', id: 't-list' });
  for (const timer of timers) listNode.append(timerCard(timer));
  // The name is asked for gently where it matters: while this browser has none and another
  // device (the terminal, a named browser) has changed a timer, "This device" comes first.
  const othersChange = [...lastChanges.values()].some((x) => x && x.by && x.by.kind !== 'browser');
  const askFirst = !thisDeviceName() && othersChange;
  root.replaceChildren(...[
    el('h1', { id: 'h-timers' }, t('nav.timers')),
    away && el('p', { class: 'muted offline-note', id: 't-offline' }, t('offline.timers.fresh', { time: keptTime(keptAt) })),
    askFirst && deviceSection(true),
    timers.length ? listNode : el('p', { class: 'muted', id: 't-none' }, t('focus.noneWeb')),
    newTimerForm(created),
    !askFirst && deviceSection(),
  ].filter(Boolean));
  restartTicker();
  if (!away) endSound.follow(timers, fetchedAt);
  clearTimeout(retry);
  retry = away ? setTimeout(() => whenNotTyping(root, () => liveRefresh().catch(console.error)), 30000) : null;
  clearInterval(agoTicker);
  agoTicker = setInterval(updateChangedLines, 30000);
  if (focusId || fallback) refocus(root, focusId, fallback);
}

function restartTicker() {
  clearInterval(ticker);
  ticker = timers.some((x) => x.status === 'running') ? setInterval(tick, 250) : null;
  tick();
}

/** The latest change of each timer not known yet (a field never written answers 404). */
async function loadLastChanges() {
  // A timer someone shared is in their log, not this person's: its card names them instead.
  const unknown = timers.filter((x) => !x.owner && !lastChanges.has(x.id));
  await Promise.all(unknown.map(async (timer) => {
    const versions = await Promise.all(CHANGE_FIELDS.map((field) => api(
      `/sync/last-change?type=focusTimer&id=${encodeURIComponent(timer.id)}&field=${field}`).catch(() => null)));
    let latest = null;
    for (const version of versions) if (version && (!latest || latest.stamp < version.stamp)) latest = version;
    // A run that ended is not a person's change: the card says Done instead.
    const ended = Boolean(latest && latest.value && latest.value.status === 'completed');
    lastChanges.set(timer.id, latest && { stamp: latest.stamp, by: latest.by, ended });
  }));
}

/** "2 minutes ago" for a stamp (`PPPPPPPPPPPPP-CCCCC-node`: milliseconds since 1970 first). */
function ago(stamp) {
  const seconds = Math.round((Date.now() - Number(stamp.slice(0, 13))) / 1000);
  if (seconds < 45) return t('sync.justNow');
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  if (seconds < 3600) return format.format(-Math.max(1, Math.round(seconds / 60)), 'minute');
  if (seconds < 86400) return format.format(-Math.round(seconds / 3600), 'hour');
  return format.format(-Math.round(seconds / 86400), 'day');
}

/** Whose a shared timer is, or whom one's own is shared with (docs/people.md); empty otherwise. */
function sharingText(timer) {
  if (timer.owner) return t('focus.sharedBy', { name: timer.owner });
  if (!timer.sharedWith || !timer.sharedWith.length) return '';
  const names = new Intl.ListFormat(locale(), { type: 'conjunction' }).format(timer.sharedWith);
  return t('focus.sharedWithNames', { names });
}

/** Who changed the timer last, in words; empty for a change made by this browser. */
function changedText(timer) {
  const last = lastChanges.get(timer.id);
  if (!last || !last.by || last.ended) return '';
  const when = ago(last.stamp);
  switch (last.by.kind) {
    case 'device': return last.by.name === thisDeviceName() ? '' : t('sync.changedBy', { device: last.by.name, when });
    case 'terminal': return t('sync.changedByTerminal', { host: last.by.host, when });
    default: return madeHere(timer.id, last.stamp) ? '' : t('sync.changedByBrowser', { when });
  }
}

function updateChangedLines() {
  for (const timer of timers) {
    const node = root.querySelector(`#t-${CSS.escape(timer.id)}-changed`);
    if (!node) continue;
    const text = changedText(timer);
    if (node.textContent !== text) node.textContent = text;
    node.hidden = !text;
  }
}

async function created(timer) {
  // Made here: its first "change" is this page's own.
  ownChanges.set(timer.id, Date.now());
  await render(`t-${timer.id}-toggle`);
  announce(t('focus.added', { name: timer.name, duration: clock(timer.durationMs) }));
}

function leftMs(timer) {
  if (timer.status !== 'running') return timer.remainingMs;
  return Math.max(0, timer.remainingMs - (performance.now() - fetchedAt));
}

function tick() {
  for (const timer of timers) {
    const node = root.querySelector(`#t-${CSS.escape(timer.id)}-time`);
    if (node) node.textContent = clock(leftMs(timer));
  }
  const due = timers.find((x) => x.status === 'running' && leftMs(x) <= 0);
  if (due && away) {
    // Offline the card says Done by itself; the server completes it by its rule when it hears.
    moveOn(due.id, (timer) => { timer.status = 'completed'; timer.remainingMs = 0; });
    announce(t('focus.completedTimer', { name: due.name }));
    return;
  }
  if (due) endSound.timeIsUp();
  if (due && !refreshing) {
    refreshing = true;
    // load() announces the end; the person's focus and typing stay as they were.
    liveRefresh().catch(console.error).finally(() => { refreshing = false; });
  }
}

function timerCard(timer) {
  const id = `t-${timer.id}`;
  const headingId = `${id}-name`;
  const error = el('p', { class: 'error', id: `${id}-error`, role: 'alert', hidden: '' });
  const fail = (e) => { error.textContent = errorText(e); error.hidden = false; };

  const toggleKey = { running: 'action.pause', paused: 'action.resume' }[timer.status] || 'action.start';
  const toggle = el('button', { type: 'button', class: 'primary', id: `${id}-toggle`, 'aria-describedby': headingId }, t(toggleKey));
  toggle.addEventListener('click', () => act(timer, timer.status === 'running' ? 'pause' : 'start').catch(fail));
  const reset = el('button', { type: 'button', class: 'secondary', id: `${id}-reset`, 'aria-describedby': headingId, hidden: timer.status === 'idle' }, t('action.reset'));
  reset.addEventListener('click', () => act(timer, 'reset').catch(fail));
  const remove = el('button', { type: 'button', class: 'secondary danger', id: `${id}-delete`, 'aria-describedby': headingId }, t('focus.deleteTimer'));
  remove.addEventListener('click', () => deleteTimer(timer).catch(fail));

  const done = timer.status === 'completed';
  const card = el('li', { class: `card timer ${timer.status}`, id, 'data-testid': 'timer', 'aria-labelledby': headingId },
    el('h2', { id: headingId }, timer.name),
    el('p', { class: 'timer-clock' },
      el('span', { class: 'timer-time', id: `${id}-time` }, clock(leftMs(timer))),
      done
        ? el('span', { class: 'timer-done', id: `${id}-status` }, el('span', { 'aria-hidden': 'true' }, '✓ '), t('focus.doneState'))
        : el('span', { class: 'muted', id: `${id}-status` }, t(`focus.status.${timer.status}`))),
    el('p', { class: 'muted timer-changed', id: `${id}-changed`, hidden: !changedText(timer) }, changedText(timer)),
    el('p', { class: 'muted timer-shared', id: `${id}-shared`, hidden: !sharingText(timer) }, sharingText(timer)),
    el('div', { class: 'actions' }, toggle, reset),
    endSound.promptPlace(timer),
    checklist(timer, fail),
    addItemForm(timer, fail),
    error,
    // Only its owner deletes a timer; whoever it is shared with sees it go.
    timer.owner ? null : el('div', { class: 'actions end' }, remove));
  if (/^#[0-9a-f]{6}$/i.test(timer.color)) card.style.setProperty('--timer-color', timer.color);
  return card;
}

/**
 * Offline: shows the list moved on by a tap here (`change(timer, list)` on a copy as it is now)
 * and keeps it, so a reload offline shows it too.
 */
function moveOn(id, change) {
  const now = timers.map((x) => ({ ...x, remainingMs: leftMs(x), items: (x.items || []).map((item) => ({ ...item })) }));
  const target = now.find((x) => x.id === id);
  if (target) change(target, now);
  timers = now;
  fetchedAt = performance.now();
  keepTimers(timers, keptAt);
  draw(`t-${id}-toggle`);
}

/** Offline: a tap kept; the server is tried at once (it may be back without an `online` event). */
function tryToSend() {
  // try: not reached; the intent waits for the next sending.
  sendIntents().catch(() => 0);
}

/** Offline: keeps the tap on one's own timer as an intent and shows its effect until the server's answer. */
function actAway(timer, action) {
  queueIntent({ timer: timer.id, action });
  ownChanges.set(timer.id, Date.now());
  moveOn(timer.id, (target, list) => {
    if (action === 'start') {
      for (const other of list) if (other !== target && other.status === 'running') other.status = 'paused';
      if (target.status !== 'paused') target.remainingMs = target.durationMs;
      target.status = 'running';
    } else if (action === 'pause') {
      target.status = 'paused';
    } else {
      target.status = 'idle';
      target.remainingMs = target.durationMs;
    }
  });
  renderOutbox();
  tryToSend();
  const remaining = clock(action === 'reset' ? timer.durationMs : leftMs(timers.find((x) => x.id === timer.id)));
  if (action === 'start') announce(t('focus.started', { name: timer.name, remaining }));
  else if (action === 'pause') announce(t('focus.pausedTimer', { name: timer.name, remaining }));
  else announce(t('focus.resetTimer', { name: timer.name, duration: clock(timer.durationMs) }));
}

/**
 * Whether a change to `timer` that did not reach the server (`error`) can wait as an intent: one's
 * own timer, with the list kept. The page is then shown as away.
 */
function canWait(timer, error) {
  if (timer.owner || !unreached(error) || !keptTimers()) return false;
  if (!away) {
    away = true;
    keptAt = keptTimers().serverAt;
  }
  return true;
}

async function act(timer, action) {
  if (away && !timer.owner) return actAway(timer, action);
  let result;
  try {
    result = await api(path(timer, `/${action}`), { method: 'POST', body: {} });
  } catch (error) {
    if (canWait(timer, error)) return actAway(timer, action);
    throw error;
  }
  lastChanges.delete(timer.id);
  // Starting one timer pauses the others, so the whole list is fetched again.
  await render(`t-${timer.id}-toggle`);
  const remaining = clock(result.remainingMs);
  if (action === 'start') announce(t('focus.started', { name: result.name, remaining }));
  else if (action === 'pause') announce(t('focus.pausedTimer', { name: result.name, remaining }));
  else announce(t('focus.resetTimer', { name: result.name, duration: clock(result.durationMs) }));
}

async function deleteTimer(timer) {
  const ok = await confirmDialog(t('focus.confirmDelete', { name: timer.name }), t('action.delete'), t('action.cancel'));
  if (!ok) return;
  const index = timers.findIndex((x) => x.id === timer.id);
  await api(path(timer), { method: 'DELETE' });
  const next = timers[index + 1] || timers[index - 1];
  await render(next ? `t-${next.id}-toggle` : 't-name');
  announce(t('focus.deleted', { name: timer.name }));
}

function checklist(timer, fail) {
  const items = el('ul', { class: 'checklist', 'aria-labelledby': `t-${timer.id}-name` });
  for (const item of timer.items || []) {
    const boxId = `item-${timer.id}-${item.id}`;
    const box = el('input', { type: 'checkbox', id: boxId, ...(item.done ? { checked: '' } : {}) });
    // Not disabled while it saves: a disabled box loses the focus (to <body>). A second click
    // meanwhile is taken back.
    let saving = false;
    box.addEventListener('click', (event) => { if (saving) event.preventDefault(); });
    // Offline: kept as an intent, sent once the server is reached.
    const tickAway = () => {
      queueIntent({ timer: timer.id, action: 'tick', item: item.id, done: box.checked });
      box.closest('li').classList.toggle('done', box.checked);
      const drawn = timers.find((x) => x.id === timer.id)?.items?.find((x) => x.id === item.id);
      if (drawn) drawn.done = box.checked;
      timers = timers.map((x) => ({ ...x, remainingMs: leftMs(x) }));
      fetchedAt = performance.now();
      keepTimers(timers, keptAt);
      shown = snapshot();
      renderOutbox();
      tryToSend();
    };
    box.addEventListener('change', async () => {
      if (away && !timer.owner) return tickAway();
      saving = true;
      box.setAttribute('aria-busy', 'true');
      try {
        await api(path(timer, `/items/${encodeURIComponent(item.id)}`), { method: 'PATCH', body: { done: box.checked } });
        box.closest('li').classList.toggle('done', box.checked);
        box.defaultChecked = box.checked;
        // What is drawn now matches the server: its live echo need not draw it again.
        const drawn = timers.find((x) => x.id === timer.id)?.items?.find((x) => x.id === item.id);
        if (drawn) { drawn.done = box.checked; shown = snapshot(); }
      } catch (error) {
        if (canWait(timer, error)) {
          tickAway();
          draw(box.id);
          return;
        }
        box.checked = !box.checked;
        fail(error);
      } finally {
        saving = false;
        box.removeAttribute('aria-busy');
      }
    });
    const remove = el('button', { type: 'button', class: 'secondary icon-button', id: `${boxId}-delete`, 'aria-label': t('focus.deleteItem', { item: item.text }), title: t('focus.deleteItem', { item: item.text }) }, '×');
    remove.addEventListener('click', async () => {
      try {
        await api(path(timer, `/items/${encodeURIComponent(item.id)}`), { method: 'DELETE' });
        await render(`t-${timer.id}-new-item`);
        announce(t('focus.itemDeleted', { item: item.text }));
      } catch (error) {
        fail(error);
      }
    });
    items.append(el('li', { class: item.done ? 'done' : '' }, el('label', { for: boxId }, box, el('span', {}, item.text)), remove));
  }
  return items;
}

function addItemForm(timer, fail) {
  const inputId = `t-${timer.id}-new-item`;
  const input = el('input', { type: 'text', id: inputId, name: 'item', autocomplete: 'off', ...boundAttributes('focus.item') });
  const form = el('form', { class: 'add-item', novalidate: '' },
    el('label', { for: inputId }, t('focus.newItem')),
    el('div', { class: 'inline' }, input, el('button', { type: 'submit', class: 'secondary', id: `t-${timer.id}-add-item` }, t('focus.addItem'))));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const text = input.value;
    try {
      await api(path(timer, '/items'), { method: 'POST', body: { text } });
      await render(inputId);
      announce(t('focus.itemAdded', { item: text.trim() }));
    } catch (error) {
      fail(error);
    }
  });
  return form;
}

/** "This device": this browser's name (or a word on why to give one) and the button that sets it. */
function deviceSection(ask = false) {
  const name = thisDeviceName();
  const button = el('button', { type: 'button', class: 'secondary', id: 't-device-name' }, t(name ? 'device.rename' : 'device.name'));
  button.addEventListener('click', () => nameDialog(button));
  return el('section', { class: ask ? 'device-name ask' : 'device-name', id: 't-device', 'aria-labelledby': 't-device-title' },
    el('h2', { id: 't-device-title' }, t('device.title')),
    el('p', { class: 'muted', id: 't-device-text' }, name ? t('device.named', { name }) : t('device.unnamed')),
    el('div', { class: 'actions' }, button));
}

/** The dialog that names this browser: the server checks the name (GET /device) before it is kept. */
function nameDialog(opener) {
  document.getElementById('device-dialog')?.remove();
  const input = el('input', { type: 'text', id: 'device-name-input', name: 'device', autocomplete: 'off', maxlength: '40', value: thisDeviceName() || '', 'aria-describedby': 'device-name-hint device-name-error' });
  const error = el('p', { class: 'error', id: 'device-name-error', role: 'alert', hidden: '' });
  const cancel = el('button', { type: 'button', class: 'secondary', id: 'device-name-cancel' }, t('action.cancel'));
  const form = el('form', { method: 'dialog', novalidate: '' },
    el('h2', { id: 'device-dialog-title' }, t('device.name')),
    field('device-name-input', t('device.field'), input),
    el('p', { class: 'muted', id: 'device-name-hint' }, t('device.hint')),
    error,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary', id: 'device-name-save' }, t('action.save')), cancel));
  const dialog = el('dialog', { id: 'device-dialog', class: 'card', 'aria-labelledby': 'device-dialog-title' }, form);
  document.body.append(dialog);
  let saved = null;
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const wanted = input.value.trim();
    try {
      saved = wanted ? (await api('/device', { device: wanted })).name : '';
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    setThisDeviceName(saved);
    dialog.close();
  });
  dialog.addEventListener('close', () => {
    dialog.remove();
    if (saved !== null) {
      const section = root.querySelector('#t-device');
      if (section) section.replaceWith(deviceSection(section.classList.contains('ask')));
      updateChangedLines();
      announce(saved ? t('device.named', { name: saved }) : t('device.unnamed'));
    }
    // Back to the button that opened it (drawn anew when the name changed).
    refocus(root, 't-device-name');
    if (!root.contains(document.activeElement) && opener.isConnected) opener.focus();
  });
  dialog.showModal();
  input.focus();
}
