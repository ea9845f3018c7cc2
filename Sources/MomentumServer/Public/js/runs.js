// The server's side of a practice run, shared by Meditate, Breathe and Workout: finding the run
// a page should pick up (after a reload, or in a second tab) and stopping one, with the
// interruptions of its sound that the player noted (the server keeps those over 1 s with the
// logged session and words them in `ending.soundText`).
import { api } from './api.js';
import { choiceDialog } from './dom.js';
import { t } from './i18n.js';
import * as player from './player.js';

/** The newest run of `kind` the server still runs, or null. */
export async function runningRun(kind) {
  const { runs } = await api('/runs');
  return runs.filter((r) => r.kind === kind).pop() || null;
}

/**
 * Stops run `id` on the server; answers the run as it ended (with `ending`). `keep: false`
 * leaves an early stop out of the log (the person said so).
 */
export function stopRun(id, { keep = true } = {}) {
  const soundInterruptions = player.interruptions();
  const body = { ...(soundInterruptions.length ? { soundInterruptions } : {}), ...(keep ? {} : { keep: false }) };
  return api(`/runs/${encodeURIComponent(id)}/stop`, { method: 'POST', body });
}

/** Whether a stop question is up (one at a time, whichever button or lock-screen control asked). */
let asking = false;

/**
 * Stop asks once, the same in every practice: the run pauses (sound and server) while the
 * server's question shows — "Stop here? You practised 1 min 10 s. Keep it in your log?" for an
 * early stop that counts, "Stop here? Less than 1 minute is not logged." for one that does not
 * (the core's rule; the terminal asks the same). Answers `{ keep }` to stop, or null after "Keep
 * going" (a run that was playing plays on) or while another question is up. `pauseButton`, the
 * page's Pause, says Resume while the run is paused for the question.
 */
export async function askToStop(id, pauseButton) {
  if (asking) return null;
  asking = true;
  const label = (paused) => { if (pauseButton) pauseButton.textContent = t(paused ? 'action.resume' : 'action.pause'); };
  try {
    const wasRunning = player.state.state === 'running';
    let state;
    if (wasRunning) {
      player.pause();
      label(true);
      state = await reportRun(id, 'pause');
    } else {
      state = await api(`/runs/${encodeURIComponent(id)}`);
    }
    const ask = state && state.ifStopped;
    if (!ask || !ask.question) return { keep: true };
    const choices = ask.asksToKeep
      ? [
        { id: 'stop-keep', text: t('run.stopAndKeep'), value: 'keep', className: 'primary' },
        { id: 'stop-discard', text: t('run.stopAndDiscard'), value: 'discard', className: 'secondary danger' },
        { id: 'stop-cancel', text: t('run.keepGoing'), value: 'continue', className: 'secondary', safe: true },
      ]
      : [
        { id: 'stop-keep', text: t('run.stopNow'), value: 'keep', className: 'primary danger' },
        { id: 'stop-cancel', text: t('run.keepGoing'), value: 'continue', className: 'secondary', safe: true },
      ];
    const answer = await choiceDialog(ask.question, choices);
    if (answer === 'continue') {
      if (wasRunning) {
        player.resume();
        label(false);
        await reportRun(id, 'resume');
      }
      return null;
    }
    return { keep: answer === 'keep' };
  } finally {
    asking = false;
  }
}

/** Tells the server the run paused or resumed now (`action`: 'pause' | 'resume'). */
export function reportRun(id, action) {
  return api(`/runs/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: {} });
}
