// The server's side of a practice run, shared by Meditate, Breathe and Workout: finding the run
// a page should pick up (after a reload, or in a second tab) and stopping one, with the
// interruptions of its sound that the player noted (the server keeps those over 1 s with the
// logged session and words them in `ending.soundText`).
import { api } from './api.js';
import * as player from './player.js';

/** The newest run of `kind` the server still runs, or null. */
export async function runningRun(kind) {
  const { runs } = await api('/runs');
  return runs.filter((r) => r.kind === kind).pop() || null;
}

/** Stops run `id` on the server; answers the run as it ended (with `ending`). */
export function stopRun(id) {
  const soundInterruptions = player.interruptions();
  const body = soundInterruptions.length ? { soundInterruptions } : {};
  return api(`/runs/${encodeURIComponent(id)}/stop`, { method: 'POST', body });
}

/** Tells the server the run paused or resumed now (`action`: 'pause' | 'resume'). */
export function reportRun(id, action) {
  return api(`/runs/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: {} });
}
