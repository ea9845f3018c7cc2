// One sound at a time: the guided meditation player and the meditation's ambient sound each
// register here and claim the focus when they start sounding; the other one is asked to pause
// and told who took over, so it can say why it paused.
//
//   register('guided', { pause: (by) => …, isSounding: () => … });
//   claim('guided');   // pauses every other registered source that is sounding
//
// window.momentumSoundFocus exposes who holds the focus, for tests.

const sources = new Map();
export const focus = { holder: null, lastPaused: null };
window.momentumSoundFocus = focus;

/** Adds (or replaces) a sound source: `pause(by)` stops it; `isSounding()` says whether it plays. */
export function register(name, { pause, isSounding }) {
  sources.set(name, { pause, isSounding });
}

/** `name` starts sounding: every other source that sounds is paused, with `name` as the reason. */
export function claim(name) {
  focus.holder = name;
  for (const [other, source] of sources) {
    if (other === name) continue;
    let sounding = false;
    try { sounding = source.isSounding(); } catch { sounding = false; }
    if (!sounding) continue;
    focus.lastPaused = { source: other, by: name };
    try { source.pause(name); } catch (error) { console.error(error); }
  }
}

/** `name` fell silent (paused, stopped or ended); it no longer holds the focus. */
export function release(name) {
  if (focus.holder === name) focus.holder = null;
}
