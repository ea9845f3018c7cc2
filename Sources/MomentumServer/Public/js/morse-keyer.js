// The paddle keyer: presses and releases of two paddles in, dits and dahs of exact length out.
// It has to run in the page (to send the keying to the server) and in the audio thread (so the
// sidetone follows the paddles within one audio buffer), so it is one small module with no DOM
// and no imports. Its rules are the core's PaddleKeyer (MomentumCore/Morse/PaddleKeyer.swift),
// line for line; both are checked against browser-tests/keyer-fixtures.json. Times are
// milliseconds on any one clock; marks are '.' and '-'.

export const MODES = ['iambicA', 'iambicB', 'ultimatic'];

/** A keyer at `unitMs` (one dit, as GET /morse/keyer sends it) in one of MODES. */
export function createKeyer({ unitMs, mode }) {
  const down = { '.': false, '-': false };
  const pressedAt = { '.': null, '-': null };
  const pressOrder = { '.': 0, '-': 0 }; // the order of the presses, for two at one instant
  let presses = 0;
  const releasedAt = { '.': null, '-': null };
  const elements = [];
  let lastInstant = null;
  let pending = null; // the element whose end (plus its gap) is still to be decided on

  const decidesAt = () => (pending ? pending.end + unitMs : null);

  function start(mark, instant) {
    const element = { mark, start: instant, end: instant + (mark === '.' ? unitMs : unitMs * 3) };
    elements.push(element);
    pending = element;
  }

  function nextMark(element) {
    const windowStart = mode === 'iambicA' ? element.end : element.start;
    const downInWindow = (p) => down[p] || (releasedAt[p] !== null && releasedAt[p] > windowStart);
    const pressedInWindow = (p) => pressedAt[p] !== null && pressedAt[p] > element.start && pressedAt[p] >= windowStart;
    const same = element.mark;
    const other = same === '.' ? '-' : '.';
    if (mode !== 'ultimatic') {
      if (downInWindow(other)) return other;
      return down[same] || pressedInWindow(same) ? same : null;
    }
    const held = ['.', '-'].filter((p) => down[p]);
    const candidates = held.length ? held : ['.', '-'].filter(pressedInWindow);
    const later = (a, b) => (pressedAt[a] ?? 0) < (pressedAt[b] ?? 0)
      || ((pressedAt[a] ?? 0) === (pressedAt[b] ?? 0) && pressOrder[a] < pressOrder[b]);
    let chosen = null;
    for (const p of candidates) if (chosen === null || later(chosen, p)) chosen = p;
    return chosen;
  }

  function decide() {
    const element = pending;
    const decision = element.end + unitMs;
    const next = nextMark(element);
    pending = null;
    // A decision made is final: a later event earlier than it is taken at it.
    lastInstant = lastInstant === null ? decision : Math.max(lastInstant, decision);
    if (next !== null) start(next, decision);
  }

  /** Makes every decision that falls before `instant`. */
  function advance(instant) {
    while (pending && decidesAt() < instant) decide();
  }

  function taken(instant) {
    const at = lastInstant === null ? instant : Math.max(instant, lastInstant);
    lastInstant = at;
    advance(at);
    return at;
  }

  return {
    elements,
    decidesAt,
    advance,
    /** The paddle ('.' or '-') goes down at `instant`; one already down is left as it is. */
    press(paddle, instant) {
      const at = taken(instant);
      if (down[paddle]) return;
      down[paddle] = true;
      pressedAt[paddle] = at;
      pressOrder[paddle] = ++presses;
      if (!pending) start(paddle, at);
    },
    /** The paddle comes up at `instant`; one already up is left as it is. */
    release(paddle, instant) {
      const at = taken(instant);
      if (!down[paddle]) return;
      down[paddle] = false;
      releasedAt[paddle] = at;
    },
    isDown: (paddle) => down[paddle],
  };
}

/**
 * The elements a script of paddle events ({paddle, down, at}, or {advance: true, at} for the
 * decisions before `at`) gives up to `until`.
 */
export function keyScript(script, { unitMs, mode, until }) {
  const keyer = createKeyer({ unitMs, mode });
  for (const event of script) {
    if (event.advance) keyer.advance(event.at);
    else if (event.down) keyer.press(event.paddle, event.at);
    else keyer.release(event.paddle, event.at);
  }
  keyer.advance(until);
  return keyer.elements;
}
