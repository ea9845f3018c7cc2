// The Morse key on this device (issue 44): which key is plugged in, how its inputs arrive, and a
// keying session that turns them into a sidetone and into the down/up signals the server's
// decoder reads. A key belongs to a device, so the choice is kept in the browser, not on the
// server (like the offline budget).
//
// Inputs (the mappings of the VBand and Vail USB adapters, and the keyboard as fallback):
// - the dit contact: `[`, left Ctrl, `.` or F, or the left mouse button on the key pad;
// - the dah contact: `]`, right Ctrl, `-` or J, or the right mouse button on the key pad.
// "Swap paddles" exchanges the two. A straight key is either contact.
//
// Paddles go through js/morse-keyer.js (the core's PaddleKeyer, pinned by shared fixtures) at the
// course's unit; the sidetone runs in an AudioWorklet (js/morse-sidetone-worklet.js) where the
// browser has one (a secure page), else it is scheduled from the page on the audio clock.
// window.momentumKeying tells tests what was keyed and how soon the sidetone sounded.
import { createKeyer, MODES } from './morse-keyer.js';
import * as audio from './morse-audio.js';

export { MODES };
export const KINDS = ['paddles', 'straight'];
const STORE = 'momentum.morseKey';

export const testing = { elements: [], signals: [], latencies: [], worklet: false };
window.momentumKeying = testing;

/** This device's key: { kind, mode, swap }. */
export function keyPreferences() {
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(STORE) || '{}') || {};
  } catch {
    kept = {};
  }
  return {
    kind: KINDS.includes(kept.kind) ? kept.kind : 'paddles',
    mode: MODES.includes(kept.mode) ? kept.mode : 'iambicB',
    swap: kept.swap === true,
  };
}

export function setKeyPreferences(change) {
  const next = { ...keyPreferences(), ...change };
  try {
    localStorage.setItem(STORE, JSON.stringify(next));
  } catch {
    /* storage full or refused: the choice lasts this page */
  }
  return next;
}

/** The contact an input event is ('.' dit or '-' dah), or null when it is no key's. */
export function contactOf(event, { swap } = keyPreferences()) {
  let side = null;
  if (event.type === 'keydown' || event.type === 'keyup') {
    if (event.code === 'BracketLeft' || event.code === 'ControlLeft' || ['.', 'f', 'F'].includes(event.key)) side = '.';
    else if (event.code === 'BracketRight' || event.code === 'ControlRight' || ['-', 'j', 'J'].includes(event.key)) side = '-';
  } else if (event.button === 0) {
    side = '.';
  } else if (event.button === 2) {
    side = '-';
  }
  if (side && swap) side = side === '.' ? '-' : '.';
  return side;
}

let sidetoneNode = null;
let sidetoneLoading = null;

/** The worklet's node on the Morse audio context, loaded once; null where there is no AudioWorklet. */
function sidetone() {
  if (sidetoneNode || sidetoneLoading) return sidetoneLoading || Promise.resolve(sidetoneNode);
  const ctx = audio.sharedContext();
  if (!ctx || !ctx.audioWorklet || typeof AudioWorkletNode === 'undefined') return Promise.resolve(null);
  sidetoneLoading = ctx.audioWorklet.addModule('/js/morse-sidetone-worklet.js').then(() => {
    sidetoneNode = new AudioWorkletNode(ctx, 'momentum-sidetone', { outputChannelCount: [1] });
    sidetoneNode.connect(ctx.destination);
    Object.assign(testing, { worklet: true, sampleRate: ctx.sampleRate, baseLatency: ctx.baseLatency, outputLatency: ctx.outputLatency ?? null });
    return sidetoneNode;
  }).catch(() => null);
  return sidetoneLoading;
}

/**
 * A keying session: `down(contact, at)` and `up(contact, at)` with the events' timeStamps.
 * `on.element(element)` hears each element as the page's keyer starts it (paddles), and
 * `on.pause(signals)` the keying so far once the key has rested `pauseMs`.
 */
export function keyingSession({ tone, unitMs, kind, mode, pauseMs }, on) {
  let keyer = createKeyer({ unitMs, mode });
  let shown = 0; // elements already handed to on.element
  let straight = []; // the straight key's moves: {down: bool, at}
  let timer = null;
  let closed = false;
  let node = null;
  const pending = []; // presses whose sound is awaited: { eventAt, postedAt, contextAt }
  testing.elements = keyer.elements;

  sidetone().then((found) => {
    if (closed || !found) return;
    node = found;
    node.port.postMessage({ type: 'config', unitMs, mode, hertz: tone.hertz, riseMs: tone.riseMs, level: 0.3 });
    node.port.onmessage = (event) => {
      if (event.data.type !== 'sounded') return;
      const press = pending.shift();
      if (!press) return;
      const ms = (press.postedAt - press.eventAt) + (event.data.frameTime - press.contextAt) * 1000;
      testing.latencies.push(Math.round(ms * 100) / 100);
    };
  });

  function post(message, eventAt) {
    if (!node) return false;
    const ctx = audio.sharedContext();
    if (message.down && (message.type === 'straight' || keyer.decidesAt() === null)) {
      pending.push({ eventAt, postedAt: performance.now(), contextAt: ctx.currentTime });
    }
    node.port.postMessage(message);
    return true;
  }

  /** Hands new elements on, sounds them where there is no worklet, and waits for the next decision. */
  function pump() {
    if (closed) return;
    keyer.advance(performance.now());
    while (shown < keyer.elements.length) {
      const element = keyer.elements[shown++];
      if (!node) audio.play([{ on: true, ms: element.end - element.start }], tone, Math.max(0, element.start - performance.now()));
      on.element?.(element);
    }
    clearTimeout(timer);
    const decidesAt = keyer.decidesAt();
    if (decidesAt !== null) {
      timer = setTimeout(pump, Math.max(0, decidesAt - performance.now()) + 1);
    } else if (keyer.elements.length) {
      const last = keyer.elements[keyer.elements.length - 1];
      timer = setTimeout(rested, Math.max(0, last.end + pauseMs - performance.now()));
    }
  }

  function signalsOf() {
    const signals = [];
    const round = (ms) => Math.round(ms * 10) / 10;
    if (kind === 'straight') {
      for (let i = 1; i < straight.length; i++) {
        const ms = round(straight[i].at - straight[i - 1].at);
        if (ms > 0) signals.push(straight[i - 1].down ? { down: ms } : { up: ms });
      }
    } else {
      keyer.elements.forEach((element, i) => {
        if (i > 0) signals.push({ up: round(element.start - keyer.elements[i - 1].end) });
        signals.push({ down: round(element.end - element.start) });
      });
    }
    return signals;
  }

  function rested() {
    if (closed) return;
    const signals = signalsOf();
    testing.signals = signals;
    if (signals.length) on.pause?.(signals);
  }

  return {
    down(contact, at) {
      if (closed) return;
      audio.unlock();
      clearTimeout(timer);
      if (kind === 'straight') {
        if (straight.length && straight[straight.length - 1].down) return;
        straight.push({ down: true, at });
        if (!post({ type: 'straight', down: true }, at)) audio.keyDown(tone);
        return;
      }
      post({ type: 'paddle', paddle: contact, down: true }, at);
      keyer.press(contact, at);
      pump();
    },
    up(contact, at) {
      if (closed) return;
      if (kind === 'straight') {
        if (!straight.length || !straight[straight.length - 1].down) return;
        straight.push({ down: false, at });
        if (!post({ type: 'straight', down: false }, at)) audio.keyUp();
        clearTimeout(timer);
        timer = setTimeout(rested, pauseMs);
        on.released?.(signalsOf());
        return;
      }
      post({ type: 'paddle', paddle: contact, down: false }, at);
      keyer.release(contact, at);
      pump();
    },
    /** The keying so far as down/up signals. */
    signals: signalsOf,
    /** Forgets what was keyed (the sidetone stops). */
    reset() {
      clearTimeout(timer);
      keyer = createKeyer({ unitMs, mode });
      testing.elements = keyer.elements;
      shown = 0;
      straight = [];
      node?.port.postMessage({ type: 'reset' });
      audio.keyUp();
    },
    close() {
      this.reset();
      closed = true;
    },
  };
}

/**
 * Listens for the key's inputs while `isOn()`: keys anywhere on the page (not while typing in a
 * field), mouse buttons on `pad`, and touches on `pad` when `pad.dataset.touch` is set. Returns a
 * function that stops listening.
 */
export function listenForKey(pad, isOn, session) {
  const typing = (event) => event.target?.closest && event.target.closest('input, select, textarea');
  const held = new Set(); // a contact's release is handled only after its press
  function onKeyDown(event) {
    if (!pad.isConnected) { stop(); return; }
    if (!isOn() || typing(event) || event.metaKey || event.altKey) return;
    const contact = contactOf(event);
    if (!contact) return;
    event.preventDefault();
    if (event.repeat || held.has(event.code)) return;
    held.add(event.code);
    session().down(contact, event.timeStamp);
  }
  function onKeyUp(event) {
    if (!held.delete(event.code)) return;
    const contact = contactOf(event);
    event.preventDefault();
    session().up(contact, event.timeStamp);
  }
  function onPointerDown(event) {
    // A touch screen's emulated mouse is no key: touch uses the page's buttons.
    if (!isOn() || event.sourceCapabilities?.firesTouchEvents) return;
    const contact = contactOf(event);
    if (!contact) return;
    event.preventDefault();
    held.add(`mouse${event.button}`);
    session().down(contact, event.timeStamp);
  }
  function onPointerUp(event) {
    if (!held.delete(`mouse${event.button}`)) return;
    session().up(contactOf(event), event.timeStamp);
  }
  // A touch screen: the pad's left half is the dit contact, its right half the dah (swapped with
  // the paddles); each finger is its own contact, so two fingers squeeze.
  const touches = new Map();
  function onTouchDown(event) {
    if (event.pointerType === 'mouse' || !pad.dataset.touch) return;
    pad.focus();
    if (!isOn()) return;
    event.preventDefault();
    const box = pad.getBoundingClientRect();
    let contact = event.clientX < box.left + box.width / 2 ? '.' : '-';
    if (keyPreferences().swap) contact = contact === '.' ? '-' : '.';
    touches.set(event.pointerId, contact);
    session().down(contact, event.timeStamp);
    try {
      pad.setPointerCapture(event.pointerId); // the finger may slide off the pad and still let go
    } catch {
      /* the pointer is already gone */
    }
  }
  function onTouchUp(event) {
    const contact = touches.get(event.pointerId);
    if (!contact) return;
    touches.delete(event.pointerId);
    session().up(contact, event.timeStamp);
  }
  pad.addEventListener('pointerdown', onTouchDown);
  pad.addEventListener('pointerup', onTouchUp);
  pad.addEventListener('pointercancel', onTouchUp);
  const noMenu = (event) => event.preventDefault();
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('keyup', onKeyUp);
  pad.addEventListener('mousedown', onPointerDown);
  document.addEventListener('mouseup', onPointerUp);
  pad.addEventListener('contextmenu', noMenu);
  function stop() {
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('keyup', onKeyUp);
    pad.removeEventListener('mousedown', onPointerDown);
    document.removeEventListener('mouseup', onPointerUp);
    pad.removeEventListener('contextmenu', noMenu);
    pad.removeEventListener('pointerdown', onTouchDown);
    pad.removeEventListener('pointerup', onTouchUp);
    pad.removeEventListener('pointercancel', onTouchUp);
  }
  return stop;
}
