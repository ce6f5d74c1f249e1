// Touch on the ImGui canvas. Emscripten's GLFW (3.1.6) takes a touch as a mouse press where the mouse last was (it
// reads a touch's position only under SDL): a tap pressed whatever the pointer had been over before, and a swipe
// scrolled nothing. Here a finger does what a mouse would do there:
// - a tap: the pointer moves to the finger and, once the app has drawn HOVER_FRAMES frames with it there, presses
//   and releases: one click, on the first tap (ImGui 1.86 lets a tab or a splitter take a press only when it, or
//   nothing, was under the pointer the frame before: a pointer that jumps and presses at once clicks nothing);
// - a swipe: the wheel, turned under the finger, so that the preset list, the fields, the description or a legend
//   scrolls (in an embed, a swipe the panels cannot use scrolls the host page, as the wheel does there);
// - a finger held still for HOLD_MS, then moved: a mouse drag (a slider, a splitter).
// Two fingers are left to the browser (pinch zoom). When the finger lifts, the pointer leaves the canvas a few frames
// later: no hover highlight or tooltip stays behind where nobody points.
const HOLD_MS = 350;
const HOVER_FRAMES = 3;
const SLOP_PX = 8;  // a finger that moves less than this is still tapping
const WHEEL_PER_PX = 100 / 75;  // a wheel notch is 100 px of deltaY; ImGui scrolls 5 lines of 15 px for it

// Resolves once the browser has drawn `n` more frames (the app draws one in each).
function frames(n) {
  return new Promise((resolve) => {
    const next = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  });
}

export function startTouch(canvas) {
  let finger = null;  // { id, x0, y0, x, y, mode: 'tap' | 'swipe' | 'drag', timer, hovered: a promise }
  const mouse = (type, x, y, buttons = 0) => canvas.dispatchEvent(new MouseEvent(type, {
    clientX: x, clientY: y, button: 0, buttons, bubbles: true, cancelable: true, view: window,
  }));
  const ours = (e) => e.target === canvas;
  const track = (e) => [...e.changedTouches].find((t) => t.identifier === finger?.id);

  // Capture on window: these run before emscripten's own touch listeners on the canvas, which they then stop.
  window.addEventListener('touchstart', (e) => {
    if (!ours(e)) return;
    e.stopPropagation();
    if (e.touches.length > 1) {  // a second finger: a pinch, the browser's
      if (finger?.mode === 'drag') mouse('mouseup', finger.x, finger.y);
      clearTimeout(finger?.timer);
      finger = null;
      return;
    }
    const t = e.changedTouches[0];
    finger = { id: t.identifier, x0: t.clientX, y0: t.clientY, x: t.clientX, y: t.clientY, mode: 'tap' };
    mouse('mousemove', t.clientX, t.clientY);  // hovered from now on: the next frames know the window under it
    finger.hovered = frames(HOVER_FRAMES);
    finger.timer = setTimeout(() => {
      if (finger?.mode !== 'tap') return;
      finger.mode = 'drag';
      mouse('mousedown', finger.x, finger.y, 1);
    }, HOLD_MS);
  }, { capture: true, passive: false });

  window.addEventListener('touchmove', (e) => {
    if (!ours(e)) return;
    e.stopPropagation();
    const t = track(e);
    if (!t) return;
    const [dx, dy] = [t.clientX - finger.x, t.clientY - finger.y];
    if (finger.mode === 'tap' && Math.hypot(t.clientX - finger.x0, t.clientY - finger.y0) >= SLOP_PX) {
      finger.mode = 'swipe';
      clearTimeout(finger.timer);
    }
    if (finger.mode === 'drag') {
      mouse('mousemove', t.clientX, t.clientY, 1);
      e.preventDefault();
    } else if (finger.mode === 'swipe') {
      const wheel = new WheelEvent('wheel', {
        clientX: t.clientX, clientY: t.clientY, deltaX: -dx * WHEEL_PER_PX, deltaY: -dy * WHEEL_PER_PX,
        deltaMode: WheelEvent.DOM_DELTA_PIXEL, bubbles: true, cancelable: true, view: window,
      });
      if (!canvas.dispatchEvent(wheel) && e.cancelable) e.preventDefault();  // a panel took it: the page stays
    }
    if (finger.mode !== 'tap') [finger.x, finger.y] = [t.clientX, t.clientY];
  }, { capture: true, passive: false });

  const end = (e) => {
    if (!ours(e)) return;
    e.stopPropagation();
    const t = track(e);
    if (!t) return;
    clearTimeout(finger.timer);
    if (e.cancelable) e.preventDefault();  // no emulated mouse events after it: they would click a second time
    if (finger.mode === 'drag') mouse('mouseup', t.clientX, t.clientY);
    const { x0, y0, hovered, mode } = finger;
    const pressed = mode === 'tap' && e.type === 'touchend' ? hovered.then(() => {
      mouse('mousedown', x0, y0, 1);
      mouse('mouseup', x0, y0);
    }) : Promise.resolve();
    pressed.then(() => frames(HOVER_FRAMES)).then(() => { if (!finger) mouse('mousemove', -1e4, -1e4); });
    finger = null;
  };
  window.addEventListener('touchend', end, { capture: true, passive: false });
  window.addEventListener('touchcancel', end, { capture: true, passive: false });
}
