// Small DOM helpers: element creation without innerHTML, the aria-live announcer, labelled
// fields, a confirmation dialog and focus restoring after a re-render.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  return fill(node, attrs, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element (`svg`, `rect`, `text` …) with attributes and children, as `el`. */
export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  // A fresh text node after a tick makes screen readers announce repeats too.
  setTimeout(() => { region.textContent = text; }, 50);
}

/** A labelled form field: `<label for=id>` above the control, with an optional unit after it. */
export function field(id, labelText, control, unitText) {
  const label = el('label', { for: id }, labelText);
  const wrap = unitText ? el('div', { class: 'input-unit' }, control, el('span', { 'aria-hidden': 'true' }, unitText)) : control;
  return el('div', { class: 'field' }, label, wrap);
}

/**
 * Asks a yes/no question in a modal `<dialog>` (focus stays inside, Escape cancels).
 * Resolves `true` when the person confirms. The dialog has id `confirm-dialog`; its buttons
 * `confirm-yes` and `confirm-no`.
 */
export async function confirmDialog(message, yesText, noText) {
  const answer = await choiceDialog(message, [
    { id: 'confirm-yes', text: yesText, value: true, className: 'primary danger' },
    { id: 'confirm-no', text: noText, value: false, className: 'secondary', safe: true },
  ]);
  return answer === true;
}

/**
 * Asks a question with several answers in a modal `<dialog>` (id `confirm-dialog`): `choices`
 * are `{ id, text, value, className, safe }`; the safe one has the focus and is what Escape
 * answers. Resolves the chosen value.
 */
export function choiceDialog(message, choices) {
  document.getElementById('confirm-dialog')?.remove();
  const opener = document.activeElement;
  const safe = choices.find((c) => c.safe) || choices[choices.length - 1];
  const buttons = choices.map((choice) => el('button', { type: 'button', class: choice.className || 'secondary', id: choice.id }, choice.text));
  const dialog = el('dialog', { id: 'confirm-dialog', class: 'card', 'aria-labelledby': 'confirm-text' },
    el('p', { id: 'confirm-text', class: 'confirm-text' }, message),
    el('div', { class: 'actions' }, ...buttons));
  document.body.append(dialog);
  return new Promise((resolve) => {
    let answer = safe.value;
    buttons.forEach((button, i) => button.addEventListener('click', () => { answer = choices[i].value; dialog.close(); }));
    dialog.addEventListener('close', () => {
      dialog.remove();
      // Back to the button that opened it; if the page was drawn anew meanwhile, to its successor.
      const back = opener && (opener.isConnected ? opener : opener.id && document.getElementById(opener.id));
      if (answer === safe.value && back) back.focus();
      resolve(answer);
    });
    dialog.showModal();
    buttons[choices.indexOf(safe)].focus();
  });
}

/** Focuses the element with `id` under `root` if it exists (after a re-render), else `fallback`. */
export function refocus(root, id, fallback) {
  const node = (id && root.querySelector(`#${CSS.escape(id)}`)) || (fallback && root.querySelector(fallback));
  if (node) node.focus();
}

/**
 * Makes `cells` (in reading order) a single tab stop: the arrow keys move by `steps`
 * (e.g. `{ ArrowRight: 1, ArrowDown: 7 }`), Home and End go to the first and last cell.
 * `start` is the index of the cell that takes the tab stop first.
 */
export function roving(cells, steps, start = 0) {
  const take = (index) => {
    cells.forEach((cell, i) => cell.setAttribute('tabindex', i === index ? '0' : '-1'));
  };
  take(Math.max(0, Math.min(cells.length - 1, start)));
  cells.forEach((cell, i) => {
    cell.addEventListener('focus', () => take(i));
    cell.addEventListener('keydown', (event) => {
      let to = null;
      if (event.key in steps) to = i + steps[event.key];
      else if (event.key === 'Home') to = 0;
      else if (event.key === 'End') to = cells.length - 1;
      if (to === null || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      cells[Math.max(0, Math.min(cells.length - 1, to))].focus();
    });
  });
}

/** The query of a deep link into `section` (`#breathe?preset=box` → its URLSearchParams), or null. */
export function linkQuery(section) {
  const hash = location.hash.replace(/^#/, '');
  const match = hash.match(new RegExp(`^${section}\\?(.*)$`));
  return match ? new URLSearchParams(match[1]) : null;
}

/**
 * Whether this screen is touched, not typed on: a coarse pointer and no fine one (a phone or a
 * tablet without a keyboard or mouse). Hints then speak of taps instead of keys.
 */
export function touchOnly() {
  return window.matchMedia('(pointer: coarse)').matches && !window.matchMedia('(any-pointer: fine)').matches;
}
