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
import { api } from './api.js';
import { createKeyer, MODES } from './morse-keyer.js';
import * as audio from './morse-audio.js';

export { MODES };
export const KINDS = ['paddles', 'straight'];
const STORE = 'momentum.morseKey';
/** Who the fallback sidetone's sounds belong to (morse-audio's owner), so a reset stops just them. */
const KEYER = 'keyer';

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
    if (event.code === 'ControlLeft') side = '.';
    else if (event.code === 'ControlRight') side = '-';
    else if (event.ctrlKey || event.metaKey || event.altKey) side = null; // Ctrl+F and the like are the browser's
    else if (event.code === 'BracketLeft' || ['.', 'f', 'F'].includes(event.key)) side = '.';
    else if (event.code === 'BracketRight' || ['-', 'j', 'J'].includes(event.key)) side = '-';
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
  let pressCount = 0;
  const pending = new Map(); // press id → { eventAt, postedAt, contextAt }, until the worklet says it sounded
  testing.elements = keyer.elements;

  sidetone().then((found) => {
    if (closed || !found) return;
    node = found;
    node.port.postMessage({ type: 'config', unitMs, mode, hertz: tone.hertz, riseMs: tone.riseMs, level: 0.3 });
    node.port.onmessage = (event) => {
      const press = event.data.type === 'sounded' && pending.get(event.data.id);
      if (!press) return;
      const ms = (press.postedAt - press.eventAt) + (event.data.frameTime - press.contextAt) * 1000;
      testing.latencies.push(Math.round(ms * 100) / 100);
    };
  });

  /** Tells the worklet; false where there is none (the page then sounds the key itself). */
  function post(message, eventAt) {
    if (!node) return false;
    if (message.down) {
      // Each press carries an id; the worklet answers for those that start a tone.
      const now = performance.now();
      for (const [id, press] of pending) if (now - press.postedAt > 5000) pending.delete(id);
      message.id = ++pressCount;
      pending.set(message.id, { eventAt, postedAt: now, contextAt: audio.sharedContext().currentTime });
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
      if (!node) audio.play([{ on: true, ms: element.end - element.start }], tone, Math.max(0, element.start - performance.now()), audio.PROMPT_LEAD_S, KEYER);
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
    kind,
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
        post({ type: 'straight', down: false }, at);
        audio.keyUp(); // a tone the page began before the worklet was there ends too
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
      // Without the worklet the keyer's elements were scheduled ahead on the audio clock.
      if (!node) audio.silence(KEYER);
    },
    close() {
      this.reset();
      closed = true;
    },
  };
}

/**
 * Listens for the key's inputs while `isOn()`: keys anywhere on the page (not while typing in a
 * field), mouse buttons on `pad`, and touches on `pad` when `pad.dataset.touch` is set. A contact
 * is let go as it was pressed (its key's contact is remembered), and every contact held is let go
 * when the page loses the focus or is hidden, so no paddle stays down. Returns a function that
 * stops listening.
 */
export function listenForKey(pad, isOn, session) {
  const typing = (event) => event.target?.closest && event.target.closest('input, select, textarea');
  const held = new Map(); // key code, `mouse0` or `touch7` → the contact it pressed
  const press = (id, contact, at) => {
    held.set(id, contact);
    session().down(contact, at);
  };
  const release = (id, at) => {
    const contact = held.get(id);
    if (!contact) return;
    held.delete(id);
    session().up(contact, at);
  };
  function onKeyDown(event) {
    if (!pad.isConnected) { stop(); return; }
    if (!isOn() || typing(event)) return;
    const contact = contactOf(event) ?? (event.code === 'Space' && session().kind === 'straight' ? '.' : null);
    if (!contact) return;
    event.preventDefault();
    if (event.repeat || held.has(event.code)) return;
    press(event.code, contact, event.timeStamp);
  }
  function onKeyUp(event) {
    if (!held.has(event.code)) return;
    event.preventDefault();
    release(event.code, event.timeStamp);
  }
  function onMouseDown(event) {
    // A touch screen's emulated mouse is no key: touches are handled below.
    if (!isOn() || event.sourceCapabilities?.firesTouchEvents) return;
    const contact = contactOf(event);
    if (!contact) return;
    event.preventDefault();
    press(`mouse${event.button}`, contact, event.timeStamp);
  }
  const onMouseUp = (event) => release(`mouse${event.button}`, event.timeStamp);
  // A touch screen: the pad's left half is the dit contact, its right half the dah (swapped with
  // the paddles); each finger is its own contact, so two fingers squeeze.
  function onTouchDown(event) {
    if (event.pointerType === 'mouse' || !pad.dataset.touch) return;
    pad.focus();
    if (!isOn()) return;
    event.preventDefault();
    const box = pad.getBoundingClientRect();
    let contact = event.clientX < box.left + box.width / 2 ? '.' : '-';
    if (keyPreferences().swap) contact = contact === '.' ? '-' : '.';
    press(`touch${event.pointerId}`, contact, event.timeStamp);
    try {
      pad.setPointerCapture(event.pointerId); // the finger may slide off the pad and still let go
    } catch {
      /* the pointer is already gone */
    }
  }
  const onTouchUp = (event) => release(`touch${event.pointerId}`, event.timeStamp);
  const letGo = () => {
    for (const id of [...held.keys()]) release(id, performance.now());
  };
  const onHidden = () => { if (document.hidden) letGo(); };
  const noMenu = (event) => event.preventDefault();
  const listeners = [
    [document, 'keydown', onKeyDown], [document, 'keyup', onKeyUp], [pad, 'mousedown', onMouseDown],
    [document, 'mouseup', onMouseUp], [pad, 'pointerdown', onTouchDown], [pad, 'pointerup', onTouchUp],
    [pad, 'pointercancel', onTouchUp], [pad, 'lostpointercapture', onTouchUp], [pad, 'contextmenu', noMenu],
    [window, 'blur', letGo], [document, 'visibilitychange', onHidden],
  ];
  for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
  function stop() {
    letGo();
    for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
  }
  return stop;
}

/**
 * A key pad that keys while it has the focus (a click, a tap or Tab gives it, so typing elsewhere
 * stays typing), at the course's speed and tone (GET /morse/keyer), with this device's key. `on`
 * is a keying session's listener (`element`, `released`, `pause(signals)`); `on.ready(keyer)`
 * hears the keyer view once it is there, `on.failed(error)` when it cannot be had. Returns
 * `{ session, forget }`: the keying session (made on first use), and a way to drop it so the next
 * press makes one with the device's key as it is then.
 */
export function focusedKeyPad(pad, pauseMs, on) {
  let keyer = null;
  let session = null;
  const keying = () => {
    if (session) return session;
    const chosen = keyPreferences();
    session = keyingSession({
      tone: { hertz: keyer.toneHertz, riseMs: keyer.riseMilliseconds }, unitMs: keyer.unitMilliseconds,
      kind: chosen.kind, mode: chosen.mode, pauseMs,
    }, on);
    return session;
  };
  const isOn = () => keyer !== null && document.activeElement === pad;
  // Focus first (a click gives it), so the same click already keys.
  pad.addEventListener('mousedown', () => pad.focus());
  pad.addEventListener('focus', () => {
    if (keyer) keying(); // the sidetone's worklet loads before the first key
  });
  pad.dataset.touch = 'true';
  listenForKey(pad, isOn, keying);
  api('/morse/keyer').then((found) => {
    keyer = found;
    pad.dataset.ready = 'true';
    on.ready?.(found);
  }).catch((failure) => on.failed?.(failure));
  return {
    session: () => session,
    forget() {
      session?.close();
      session = null;
    },
  };
}
