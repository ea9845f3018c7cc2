// The server's side of a practice run, shared by Meditate, Breathe and Workout: finding the run
// a page should pick up (after a reload, or in a second tab) and stopping one, with the
// interruptions of its sound that the player noted (the server keeps those over 1 s with the
// logged session and words them in `ending.soundText`).
import { api } from './api.js';
import { choiceDialog } from './dom.js';
import { t } from './i18n.js';
import * as player from './player.js';
import { endLocal, forgetLocal, isLocal, leftBehind, noteStep } from './local-runs.js';
import { keep as keepReport } from './outbox.js';

/** The newest run of `kind` the server still runs, or null. */
export async function runningRun(kind) {
  const { runs } = await api('/runs');
  return runs.filter((r) => r.kind === kind).pop() || null;
}

/**
 * Stops run `id` on the server; answers the run as it ended (with `ending`). `keep: false`
 * leaves an early stop out of the log (the person said so). `completed`: the run played to its
 * end (the server knows it; a run played on this device words its ending by it).
 */
export async function stopRun(id, { keep = true, completed = false } = {}) {
  const soundInterruptions = player.interruptions();
  if (isLocal(id)) return stopLocal(id, { keep, completed }, soundInterruptions);
  const body = { ...(soundInterruptions.length ? { soundInterruptions } : {}), ...(keep ? {} : { keep: false }) };
  return api(`/runs/${encodeURIComponent(id)}/stop`, { method: 'POST', body });
}

/**
 * A practice played on this device ends into a report kept in the outbox, sent at once if the
 * server is reached, else later; the completion view says it is kept here.
 */
async function stopLocal(id, { keep, completed }, soundInterruptions) {
  const ended = endLocal(id, { keep, soundInterruptions });
  // A stop the person did not want kept is not sent at all; a kept one is forgotten here only
  // once the outbox has it.
  if (keep) await keepReport(ended.report, ended.name).then(() => forgetLocal(id), (error) => console.error(error));
  else forgetLocal(id);
  return {
    id, local: true, report: keep ? ended.report : null,
    ending: { outcome: completed ? 'completed' : 'stopped', text: t(keep ? 'offline.run.kept' : 'offline.run.discarded') },
  };
}

/**
 * A practice played on this device whose page was closed before it ended: reported as stopped
 * when that page was last seen (the server logs what was practised by its rule), never lost.
 */
export async function reportLeftBehind() {
  const { ended, recheckMs } = await leftBehind();
  for (const { report, name } of ended) {
    await keepReport(report, name).then(() => forgetLocal(report.id), (error) => console.error(error));
  }
  // One seen a moment ago (a reload, or another tab) is looked at again once it can be judged.
  if (recheckMs !== null) setTimeout(() => { reportLeftBehind().catch(console.error); }, recheckMs);
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
    } else if (!isLocal(id)) {
      state = await api(`/runs/${encodeURIComponent(id)}`);
    }
    const ask = isLocal(id) ? { question: t('offline.run.stopQuestion'), asksToKeep: true } : state && state.ifStopped;
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

/**
 * Tells the server the run paused or resumed now (`action`: 'pause' | 'resume'); a run played on
 * this device notes the instant instead.
 */
export async function reportRun(id, action) {
  if (isLocal(id)) {
    noteStep(id, action);
    return {};
  }
  return api(`/runs/${encodeURIComponent(id)}/${action}`, { method: 'POST', body: {} });
}
