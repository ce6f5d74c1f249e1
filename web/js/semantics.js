// The semantics layer over the canvas: one transparent DOM node per control the panels drew (web/draw/semantics.hpp
// records them each frame from ImGui's widget tree), placed over it, in reading order, with its role, name, value and
// state, so Tab reaches every control in the canvas and a screen reader reads and operates it, as Flutter's web engine
// does over its canvas. Nodes are native elements where one fits (<button>, <input type=checkbox>, <input>, <select>);
// the experiments are a listbox and the view tabs a tablist, each one Tab stop moved through with the arrow keys; the
// runs table's rows are a list read in order, not a Tab stop.
//
// Acting on a node acts on its ImGui item, the same path as a click (muplay_semantics_activate); a text field's value
// is applied on Enter or on leaving it, and a <select>'s choice at once (muplay_semantics_set_value), so the spec
// editor validates them as typed in the canvas. Focusing a node scrolls its panel to it. The nodes are transparent
// and let the mouse through; the focused one draws the focus ring over the canvas, and a text field shows while it
// is edited. The layer is rebuilt only when the record's revision moves; nodes are kept by ImGui id, so focus stays
// on a node across rebuilds, and a node that goes away hands it to its neighbour, never to <body>.

const DESCRIPTIONS = 'semantics-descriptions';

// The element for a role: [tag, attributes fixed for it].
function createElement(node) {
  switch (node.role) {
    case 'checkbox': return Object.assign(document.createElement('input'), { type: 'checkbox' });
    case 'text':
    case 'number': {
      const input = Object.assign(document.createElement('input'), { type: 'text', spellcheck: false });
      if (node.role === 'number') input.inputMode = 'decimal';
      input.autocomplete = 'off';
      return input;
    }
    case 'textarea': return Object.assign(document.createElement('textarea'), { spellcheck: false });
    case 'combo': return document.createElement('select');
    case 'slider': return Object.assign(document.createElement('input'), { type: 'range' });
    case 'option': {
      const option = document.createElement('div');
      option.setAttribute('role', 'option');
      return option;
    }
    case 'line': {
      const line = document.createElement('div');
      line.setAttribute('role', 'listitem');
      return line;
    }
    case 'radio': {
      const radio = Object.assign(document.createElement('button'), { type: 'button' });
      radio.setAttribute('role', 'radio');
      return radio;
    }
    case 'tab': {
      const tab = Object.assign(document.createElement('button'), { type: 'button' });
      tab.setAttribute('role', 'tab');
      return tab;
    }
    default: return Object.assign(document.createElement('button'), { type: 'button' });
  }
}

const kindOf = (node) => (node.role === 'tree' ? 'button' : node.role || 'button');
// Fields the user types into: their value is applied on Enter (not in a textarea) or on leaving them.
const TYPED = ['text', 'number', 'textarea'];
// Nodes a click, Enter or Space presses.
const PRESSED = ['button', 'checkbox', 'tab', 'option', 'radio'];

// A group's container: the experiments' listbox, a tab bar's tablist.
function createGroup(node) {
  const group = document.createElement('div');
  group.setAttribute('role', { tab: 'tablist', option: 'listbox', line: 'list' }[node.role] ?? 'group');
  return group;
}

function place(element, rect) {
  const [x0, y0, x1, y1] = rect;
  const style = element.style;
  style.left = `${x0}px`;
  style.top = `${y0}px`;
  style.width = `${Math.max(1, x1 - x0)}px`;
  style.height = `${Math.max(1, y1 - y0)}px`;
  // A field shown while edited gets the panel's font size: ImGui's frame is the font plus 3 units above and below.
  if (element.tagName !== 'TEXTAREA') style.fontSize = `${Math.max(10, (y1 - y0) * 0.68)}px`;
}

function setAttribute(element, name, value) {
  if (value === null || value === undefined || value === false) element.removeAttribute(name);
  else if (element.getAttribute(name) !== String(value)) element.setAttribute(name, String(value));
}

// The description a screen reader reads after the name: the field's meaning, what it allows and its default, then the
// problem shown under it.
function describe(element, node, descriptions) {
  const text = [node.description, node.problem].filter(Boolean).join('\n');
  const id = `semantics-d-${node.id}`;
  let holder = document.getElementById(id);
  if (!text) {
    holder?.remove();
    setAttribute(element, 'aria-describedby', null);
    return;
  }
  if (!holder) {
    holder = Object.assign(document.createElement('span'), { id });
    descriptions.append(holder);
  }
  if (holder.textContent !== text) holder.textContent = text;
  setAttribute(element, 'aria-describedby', id);
}

// Writes a node's name, state and value onto its element. A text field the user is editing keeps what they typed.
function update(element, node, descriptions) {
  element.dataset.id = node.id;
  element.dataset.role = node.role;
  element.dataset.english = node.english;
  element.classList.toggle('clipped', !node.visible);
  place(element, node.rect);
  setAttribute(element, 'aria-disabled', node.disabled ? 'true' : null);
  describe(element, node, descriptions);
  switch (node.role) {
    case 'checkbox':
      element.checked = node.checked;
      setAttribute(element, 'aria-label', node.name);
      break;
    case 'text':
    case 'number':
    case 'textarea':
      setAttribute(element, 'aria-label', node.name);
      setAttribute(element, 'aria-invalid', node.problem ? 'true' : null);
      if (!element.dataset.dirty && element.value !== node.value) element.value = node.value;
      element.dataset.value = node.value;
      break;
    case 'combo': {
      setAttribute(element, 'aria-label', node.name);
      const choices = node.choices.includes(node.value) ? node.choices : [node.value, ...node.choices];
      if ([...element.options].map((o) => o.value).join('\n') !== choices.join('\n')) {
        element.replaceChildren(...choices.map((c) => new Option(c, c)));
      }
      if (element.value !== node.value) element.value = node.value;
      setAttribute(element, 'aria-invalid', node.problem ? 'true' : null);
      break;
    }
    case 'slider':
      setAttribute(element, 'aria-label', node.name);
      Object.assign(element, { min: node.min, max: node.max, step: node.step || 'any' });
      element.value = node.value;
      setAttribute(element, 'aria-valuetext', node.description || node.value);
      break;
    case 'radio':
      if (element.textContent !== node.name) element.textContent = node.name;
      setAttribute(element, 'aria-checked', node.selected ? 'true' : 'false');
      break;
    case 'line':
      if (element.textContent !== node.name) element.textContent = node.name;
      break;
    case 'option':
    case 'tab':
      if (element.textContent !== node.name) element.textContent = node.name;
      setAttribute(element, 'aria-selected', node.selected ? 'true' : 'false');
      break;
    default:
      if (element.textContent !== node.name) element.textContent = node.name;
      setAttribute(element, 'aria-expanded', node.role === 'tree' ? String(node.expanded) : null);
  }
}

// Puts `wanted` as `parent`'s children, in that order, moving only what is out of place and removing the rest. Moving
// a focused element blurs it: it gets the focus back.
function arrange(parent, wanted) {
  const focused = document.activeElement;
  let cursor = parent.firstChild;
  for (const element of wanted) {
    if (element === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(element, cursor);
  }
  while (cursor) {
    const next = cursor.nextSibling;
    cursor.remove();
    cursor = next;
  }
  if (focused !== document.activeElement && focused?.isConnected) focused.focus({ preventScroll: true });
}

// In a listbox or tablist one member is the Tab stop: the one focused, else the selected one, else the first.
function rove(group) {
  const members = [...group.children];
  const current = members.find((e) => e === document.activeElement) ??
    members.find((e) => e.getAttribute('aria-selected') === 'true') ?? members[0];
  for (const e of members) e.tabIndex = e === current ? 0 : -1;
}

export function startSemantics(m, canvas) {
  const layer = document.createElement('div');
  layer.id = 'semantics';
  const descriptions = document.createElement('div');
  descriptions.id = DESCRIPTIONS;
  descriptions.hidden = true;
  canvas.after(layer, descriptions);

  const elements = new Map();  // ImGui id -> element
  const groups = new Map();    // group key -> container
  let order = [];              // ids in reading order, as last built
  let revision = -1;
  let keyed = null;            // the node a key just pressed
  let lost = null;             // {id, to}: the focused node that went away, and the neighbour given the focus

  const act = (element) => {
    if (element.getAttribute('aria-disabled') === 'true') return;
    m.muplay_semantics_activate(Number(element.dataset.id));
  };
  const commit = (input) => {
    delete input.dataset.dirty;
    if (input.value !== input.dataset.value) m.muplay_semantics_set_value(Number(input.dataset.id), input.value);
  };

  function element(node) {
    let e = elements.get(node.id);
    if (e && e.dataset.kind === kindOf(node)) return e;
    e = createElement(node);
    e.dataset.kind = kindOf(node);
    e.className = 'semantic';
    elements.set(node.id, e);
    return e;
  }

  // Where the focus goes when its node left the layer: the next node of the old order still there, else the one
  // before, else the canvas.
  function neighbour(lostId) {
    const at = order.indexOf(lostId);
    for (const list of [order.slice(at + 1), order.slice(0, Math.max(0, at)).reverse()]) {
      for (const id of list) if (elements.has(id) && elements.get(id).isConnected) return elements.get(id);
    }
    return canvas;
  }

  function rebuild({ nodes }) {
    const focusedId = layer.contains(document.activeElement) ? Number(document.activeElement.dataset.id) : null;
    const top = [], members = new Map(), seen = new Set();
    for (const node of nodes) {
      const e = element(node);
      update(e, node, descriptions);
      seen.add(node.id);
      if (!node.group) {
        top.push(e);
        continue;
      }
      if (!members.has(node.group)) {
        const group = groups.get(node.group) ?? createGroup(node);
        groups.set(node.group, group);
        setAttribute(group, 'aria-label', node.group_label || null);
        members.set(node.group, []);
        top.push(group);
      }
      members.get(node.group).push(e);
    }
    for (const [key, group] of groups) {
      if (!members.has(key)) {
        groups.delete(key);
        continue;
      }
      arrange(group, members.get(key));
      if (['listbox', 'tablist'].includes(group.getAttribute('role'))) rove(group);
    }
    arrange(layer, top);
    for (const id of elements.keys()) if (!seen.has(id)) elements.delete(id);
    for (const holder of [...descriptions.children]) {
      if (!seen.has(Number(holder.id.slice('semantics-d-'.length)))) holder.remove();
    }
    // A node gone for a frame (its panel drew something else once) gets the focus back if the neighbour still has it.
    if (lost && seen.has(lost.id) && document.activeElement === lost.to) {
      elements.get(lost.id).focus({ preventScroll: true });
    }
    lost = null;
    if (focusedId !== null && !seen.has(focusedId)) {
      lost = { id: focusedId, to: neighbour(focusedId) };
      lost.to.focus({ preventScroll: true });
    } else if (focusedId !== null && !layer.contains(document.activeElement)) {
      elements.get(focusedId).focus({ preventScroll: true });  // its node became another kind of element
    }
    order = nodes.map((n) => n.id);
  }

  // Arrow keys move within a listbox or tablist; Home and End to its ends; Enter or Space presses an option. Called
  // by index.html's key listener for keys in the layer (which keeps them from the canvas' shortcuts).
  window.muplaySemanticsKey = (e) => {
    if (e.type !== 'keydown' || !(e.target instanceof Element) || !layer.contains(e.target)) return;
    const target = e.target;
    // Enter and Space press a node here rather than through the element's own activation, the same in every
    // browser (Firefox driven over WebDriver BiDi clicks no button on a key); a click the browser still makes of
    // the key is not a second press.
    if (PRESSED.includes(target.dataset.kind) && (e.key === 'Enter' || e.key === ' ') && !e.repeat) {
      e.preventDefault();
      act(target);
      keyed = target;
      setTimeout(() => { if (keyed === target) keyed = null; }, 500);
      return;
    }
    if ((target.dataset.role === 'text' || target.dataset.role === 'number') && e.key === 'Enter') {
      commit(target);
      return;
    }
    if (TYPED.includes(target.dataset.role) && e.key === 'Escape') {
      target.value = target.dataset.value;
      delete target.dataset.dirty;
      return;
    }
    const group = target.parentElement;
    const role = group?.getAttribute('role');
    if (role !== 'listbox' && role !== 'tablist') return;
    const back = role === 'listbox' ? 'ArrowUp' : 'ArrowLeft', forth = role === 'listbox' ? 'ArrowDown' : 'ArrowRight';
    const list = [...group.children], at = list.indexOf(target);
    const next = { [back]: at - 1, [forth]: at + 1, Home: 0, End: list.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const to = list[Math.max(0, Math.min(list.length - 1, next))];
    to.focus({ preventScroll: true });
    rove(group);
  };

  layer.addEventListener('click', (e) => {
    const target = e.target.closest?.('.semantic');
    if (!target || !PRESSED.includes(target.dataset.kind)) return;
    if (target === keyed && e.detail === 0) {
      keyed = null;
      return;
    }
    act(target);
  });
  layer.addEventListener('input', (e) => {
    if (TYPED.includes(e.target.dataset.role)) e.target.dataset.dirty = '1';
  });
  layer.addEventListener('change', (e) => {
    const target = e.target;
    if (target.dataset.role === 'combo' || target.dataset.role === 'slider') {
      m.muplay_semantics_set_value(Number(target.dataset.id), target.value);
    } else if (TYPED.includes(target.dataset.role)) {
      commit(target);
    }
  });
  layer.addEventListener('focusout', (e) => {
    if (TYPED.includes(e.target.dataset.role) && e.target.dataset.dirty) {
      commit(e.target);
    }
  });
  layer.addEventListener('focusin', (e) => {
    const id = Number(e.target.dataset.id);
    if (Number.isFinite(id)) m.muplay_semantics_scroll_to(id);
    if (e.target.parentElement !== layer) rove(e.target.parentElement);
  });

  const tick = () => {
    const r = m.muplay_semantics_revision();
    if (r !== revision) {
      revision = r;
      rebuild(JSON.parse(m.muplay_semantics()));
    }
    requestAnimationFrame(tick);
  };
  tick();
}
