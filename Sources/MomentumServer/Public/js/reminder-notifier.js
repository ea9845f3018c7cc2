// When to show which reminder as a notification, while the app is open. The plan is the server's
// (GET /api/v1/reminders, re-planned on every request); this only decides when to look again and
// when to show. Everything that varies is injected: the clock, timers, fetching, showing and the
// memory of what was shown, so the rules can be driven by a test clock.
//
// The server leaves out a reminder whose time has come, so "is it still planned?" must be asked a
// little before it is due: at fireAt − confirmAheadMs the plan is fetched again; a reminder still
// in it is shown at fireAt, one that is gone (practice done meanwhile, settings changed) is not.

export const REFRESH_MS = 5 * 60 * 1000;
export const CONFIRM_AHEAD_MS = 15 * 1000;
/** A reminder whose timer fires this late (the computer slept) is no longer news: not shown. */
export const LATE_LIMIT_MS = 10 * 60 * 1000;
/** Shown occurrences are remembered this long (the plan never reaches further back). */
export const REMEMBER_MS = 2 * 24 * 60 * 60 * 1000;

/**
 * What to do with a fresh plan at `now`: the reminders to show (with their delay), and when to
 * fetch the plan again.
 *
 * @param {Array<{occurrenceID: string, fireAt: string}>} reminders the plan, any order
 * @param {number} now epoch milliseconds
 * @param {(id: string) => boolean} wasShown
 * @returns {{show: Array<{reminder: object, delayMs: number}>, nextFetchMs: number}}
 */
export function decide(reminders, now, wasShown, { refreshMs = REFRESH_MS, confirmAheadMs = CONFIRM_AHEAD_MS } = {}) {
  const show = [];
  let nextFetchMs = refreshMs;
  for (const reminder of reminders) {
    if (wasShown(reminder.occurrenceID)) continue;
    const delayMs = Date.parse(reminder.fireAt) - now;
    if (Number.isNaN(delayMs)) continue;
    if (delayMs <= confirmAheadMs) {
      // This plan is fresh enough to confirm it.
      show.push({ reminder, delayMs: Math.max(0, delayMs) });
    } else {
      nextFetchMs = Math.min(nextFetchMs, delayMs - confirmAheadMs);
    }
  }
  return { show, nextFetchMs };
}

/** The remembered occurrences without those shown before `now - rememberMs`. */
export function pruned(shown, now, rememberMs = REMEMBER_MS) {
  return Object.fromEntries(Object.entries(shown).filter(([, at]) => now - at < rememberMs));
}

/**
 * Drives `decide` with real effects:
 * - `fetchPlan()` → Promise of the reminders (the API's `reminders` list)
 * - `show(reminder)` shows one notification
 * - `memory` `{load() → {occurrenceID: shownAtMs}, save(map)}` (localStorage in the app, shared by tabs)
 * - `now()`, `setTimer(fn, ms)` → handle, `clearTimer(handle)`
 */
export class ReminderNotifier {
  constructor({ fetchPlan, show, memory, now = () => Date.now(),
    setTimer = (fn, ms) => setTimeout(fn, ms), clearTimer = (handle) => clearTimeout(handle),
    refreshMs = REFRESH_MS, confirmAheadMs = CONFIRM_AHEAD_MS }) {
    Object.assign(this, { fetchPlan, showNotification: show, memory, now, setTimer, clearTimer, refreshMs, confirmAheadMs });
    this.pending = new Map(); // occurrenceID → {timer, reminder}
    this.fetchTimer = null;
    this.running = false;
    this.lastFetchAt = null;
    this.fetching = null;
  }

  start() {
    this.running = true;
    return this.refresh();
  }

  stop() {
    this.running = false;
    this.clearTimer(this.fetchTimer);
    this.fetchTimer = null;
    for (const { timer } of this.pending.values()) this.clearTimer(timer);
    this.pending.clear();
  }

  /** Fetches the plan and schedules from it (at most one fetch at a time). */
  refresh() {
    if (!this.running) return Promise.resolve();
    if (!this.fetching) {
      this.fetching = this.fetchAndSchedule().finally(() => { this.fetching = null; });
    }
    return this.fetching;
  }

  async fetchAndSchedule() {
    let reminders;
    try {
      reminders = await this.fetchPlan();
    } catch {
      reminders = null; // offline or refused: keep what is scheduled, try again later
    }
    if (!this.running) return;
    const now = this.now();
    if (reminders) {
      this.lastFetchAt = now;
      const shown = this.memory.load();
      const { show, nextFetchMs } = decide(reminders, now, (id) => id in shown,
        { refreshMs: this.refreshMs, confirmAheadMs: this.confirmAheadMs });
      const confirmed = new Set(show.map(({ reminder }) => reminder.occurrenceID));
      // Gone from the plan (or no longer due soon): not shown.
      for (const [id, { timer }] of this.pending) {
        if (!confirmed.has(id)) { this.clearTimer(timer); this.pending.delete(id); }
      }
      for (const { reminder, delayMs } of show) {
        const old = this.pending.get(reminder.occurrenceID);
        if (old) this.clearTimer(old.timer);
        const timer = this.setTimer(() => this.due(reminder.occurrenceID), delayMs);
        this.pending.set(reminder.occurrenceID, { timer, reminder });
      }
      this.schedule(nextFetchMs);
    } else {
      this.schedule(this.refreshMs);
    }
  }

  schedule(delayMs) {
    this.clearTimer(this.fetchTimer);
    this.fetchTimer = this.setTimer(() => { this.fetchTimer = null; this.refresh(); }, Math.max(0, delayMs));
  }

  due(occurrenceID) {
    const entry = this.pending.get(occurrenceID);
    if (!entry) return;
    this.pending.delete(occurrenceID);
    const now = this.now();
    if (now - Date.parse(entry.reminder.fireAt) > LATE_LIMIT_MS) return;
    const shown = this.memory.load();
    if (occurrenceID in shown) return; // another tab was first
    this.memory.save({ ...pruned(shown, now), [occurrenceID]: now });
    this.showNotification(entry.reminder);
  }

  /** For tests and the settings card: what is waiting and when the plan was last read. */
  state() {
    return {
      running: this.running,
      lastFetchAt: this.lastFetchAt,
      pending: [...this.pending.keys()],
      shown: Object.keys(this.memory.load()),
    };
  }
}
