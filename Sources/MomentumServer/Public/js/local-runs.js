// Practices played on this device with the server out of reach (docs/offline.md): a run whose
// id is made here, whose sound is the one kept for it (`/offline/audio/{key}`, answered by the
// service worker) and whose start, pauses, resumes and stop are noted with their instants. When
// it ends it becomes a run report (js/outbox.js), which the server logs by the one rule of every
// run once it is reached. The pages play a local run as any other: runs.js and player.js ask
// here whether a run is local.

/** The local runs of this page: id → { key, name, practice, steps }. */
const runs = new Map();

/**
 * Starts `prepared` (an entry of GET /runs/prepared: `key`, `name`, `practice`, `run`) now, on
 * this device. Answers the run view the pages show: the server's prepared view with this run's id.
 */
export function startLocal(prepared) {
  const id = crypto.randomUUID();
  runs.set(id, {
    key: prepared.key, name: prepared.name, practice: prepared.practice,
    steps: [{ action: 'start', at: new Date().toISOString() }],
  });
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
  run.steps.push({ action, at: new Date().toISOString() });
}

/**
 * Ends local run `id` now into its report (the body of POST /runs/reports) and forgets the run.
 * The stop is always noted: one after the timeline's end ends the run at its end (the core's
 * rule), and the server's clock need not agree with this device's about when that was.
 */
export function endLocal(id, { keep = true, soundInterruptions = [] } = {}) {
  const run = runs.get(id);
  if (!run) return null;
  runs.delete(id);
  const steps = [...run.steps, { action: 'stop', at: new Date().toISOString() }];
  return {
    name: run.name,
    report: {
      id, practice: run.practice, steps, keep,
      ...(soundInterruptions.length ? { soundInterruptions } : {}),
    },
  };
}
