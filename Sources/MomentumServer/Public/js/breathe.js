// Breathe: pick a preset; a circle grows on the inhale and shrinks on the exhale, driven by the
// breathing timeline's segments; the cues play through the shared Web Audio player.
import { api } from './api.js';
import { t, clock } from './i18n.js';
import { el, announce } from './dom.js';
import * as player from './player.js';

let root;
let presets = [];
let timeline = null;
let run = null;
let ticker = null;
let lastIndex = -1;

export async function mount(view) {
  root = view;
  const data = await api('/breathing/presets').catch(() => ({ presets: [] }));
  presets = data.presets || [];
  player.preload(['inhale', 'exhale', 'hold', 'endGong']);
  render();
}
export const remount = (view) => { root = view; render(); };

function render() {
  root.replaceChildren(el('h1', { id: 'h-breathe' }, t('nav.breathe')));
  if (timeline) return renderPlayer();
  const select = el('select', { id: 'b-preset', name: 'preset' });
  for (const p of presets) {
    const key = `breathing.preset.${p.id}`;
    const name = p.isBuiltIn && t(key) !== key ? t(key) : p.name;
    select.append(el('option', { value: p.id }, `${name} · ${p.pattern} × ${p.rounds}`));
  }
  const form = el('form', { class: 'form card' },
    el('div', { class: 'field' }, el('label', { for: 'b-preset' }, t('nav.breathe')), select),
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, t('action.start'))));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    player.unlock();
    start({ preset: select.value }).catch(console.error);
  });
  root.append(form);
}

async function start(plan) {
  run = await api('/runs', { method: 'POST', body: { kind: 'breathing', plan } });
  timeline = run.timeline;
  lastIndex = -1;
  render();
  const playing = player.play(timeline, 0);
  clearInterval(ticker);
  ticker = setInterval(tick, 100);
  tick();
  await playing;
}

function renderPlayer() {
  const svgNS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(svgNS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', 'breath');
  svg.setAttribute('aria-hidden', 'true');
  const orb = document.createElementNS(svgNS, 'circle');
  orb.setAttribute('cx', '50'); orb.setAttribute('cy', '50'); orb.setAttribute('r', '46'); orb.setAttribute('class', 'orb');
  svg.append(orb);
  const stop = el('button', { type: 'button', class: 'secondary' }, t('action.stop'));
  stop.addEventListener('click', () => finish().catch(console.error));
  root.append(el('div', { class: 'player card' }, svg,
    el('p', { class: 'affirmation', id: 'b-phase' }),
    el('p', { class: 'muted', id: 'b-left' }),
    el('div', { class: 'actions' }, stop)));
}

const PHASE_KEY = { inhale: 'breathing.inhale', exhale: 'breathing.exhale', holdAfterInhale: 'breathing.hold', holdAfterExhale: 'breathing.hold' };

function tick() {
  if (!timeline) return;
  const elapsed = player.elapsedMs();
  const segs = timeline.segments || [];
  let index = 0;
  segs.forEach((s, i) => { if (elapsed >= s.startMs) index = i; });
  const seg = segs[index];
  const orb = root.querySelector('.orb');
  if (seg && index !== lastIndex && orb) {
    lastIndex = index;
    const scale = seg.kind === 'inhale' || seg.kind === 'holdAfterInhale' ? 1 : 0.45;
    const remainingInSeg = Math.max(0, seg.startMs + (seg.durationMs || 0) - elapsed);
    orb.style.setProperty('--breath-ms', `${seg.kind.startsWith('hold') ? 0 : remainingInSeg}ms`);
    orb.style.setProperty('--breath-scale', String(scale));
    const text = t(PHASE_KEY[seg.kind] || 'breathing.hold');
    root.querySelector('#b-phase').textContent = text;
    announce(text);
  }
  const left = Math.max(0, (timeline.totalMs || 0) - elapsed);
  const leftNode = root.querySelector('#b-left');
  if (leftNode) leftNode.textContent = t('player.remaining', { time: clock(left) });
  document.title = `${clock(left)} · ${t('nav.breathe')} · ${t('app.name')}`;
  if (timeline.totalMs != null && elapsed >= timeline.totalMs) finish().catch(console.error);
}

async function finish() {
  clearInterval(ticker);
  player.stop();
  if (run) await api(`/runs/${run.id}/stop`, { method: 'POST', body: {} }).catch(console.error);
  run = null;
  timeline = null;
  document.title = t('app.name');
  render();
}
