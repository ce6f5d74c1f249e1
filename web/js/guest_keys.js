// An embed is a guest in its host's page (lecture notes, a reveal.js deck): it gets keys only once clicked into (the
// browser gives an iframe the keyboard then), keeps those it acts on, and gives back the keys that move a slide or
// scroll the notes, so a lecturer who clicked Run in an embed still turns to the next slide with the arrow keys.
//
// Given back: the arrow keys, Page Up/Down, Home and End (the canvas never uses them outside a text field), and Space,
// S and R where they are not the embed's own shortcuts (run/pause, step, reset: an embed without its controls panel).
// The embed's own: every key while one of its text fields or the figure element (data-own-keys) has the keyboard, keys
// with Ctrl, Alt or Meta (the browser's or the field's), and on a focused toolbar button or node of the semantics
// layer the keys it takes (Space, Enter; the arrows in a listbox or tablist).
//
// Giving a key back: the embed does not act on it (index.html keeps it from the app), tells its host in two forms,
//   the embed API's event  {muplay: 1, type: 'event', event: 'key', key, code, shiftKey}  (web/js/embed_api.js), and
//   reveal.js's postMessage API, a JSON string {"method": "right", "args": []} (a deck listens for it when its
//     `postMessage` option is on, the default, and calls Reveal[method]),
// and lets the browser do with it what it does in a frame that cannot scroll: scroll the host's notes (the key's
// default is left alone; the embed's document never scrolls, index.html). The embed's own element gives up the
// keyboard (blur), so the embed's shortcuts stop, but the keyboard stays on the iframe in the host's page: a
// keyboard or screen-reader user keeps their place there (Tab goes on to what follows the embed), never thrown to
// the top of the notes. A reveal.js deck that leaves the embed's slide tells the embed ('slide:stop', posted to the
// frames of the slide it leaves): the embed is out of sight then, and it hands the keyboard to the deck
// (window.parent.focus()), so the keys after the one that turned the slide are the deck's own (B, F, Esc too).

const NAVIGATION = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End']);
const SHORTCUTS = new Set([' ', 's', 'S', 'r', 'R']);

// The reveal.js method each key calls in a deck (its keyboard controller's default navigation mode).
function revealCall(e) {
  switch (e.key) {
    case 'ArrowLeft': return ['left', []];
    case 'ArrowRight': return ['right', []];
    case 'ArrowUp': return ['up', []];
    case 'ArrowDown': return ['down', []];
    case 'PageUp': return ['prev', []];
    case 'PageDown': return ['next', []];
    case 'Home': return ['slide', [0]];
    case 'End': return ['slide', [Number.MAX_SAFE_INTEGER]];  // reveal.js clamps it to the last slide
    case ' ': return [e.shiftKey ? 'prev' : 'next', []];
    default: return null;
  }
}

// Whether the embed gives this keydown back rather than acting on it.
function givesBack(m, e) {
  if (e.ctrlKey || e.altKey || e.metaKey) return false;
  const navigation = NAVIGATION.has(e.key);
  if (!navigation && !SHORTCUTS.has(e.key)) return false;
  const target = e.target instanceof Element ? e.target : null;
  // An element that takes the arrows itself (the figure: web/js/audio_trace.js) keeps them.
  if (target && target.closest('input, textarea, select, [contenteditable], dialog, [data-own-keys]')) return false;
  if (target && target.closest('#bar')) return navigation;  // a focused button takes Space and Enter itself
  // A node of the canvas' semantics layer (web/js/semantics.js) takes Space and Enter too, and in the experiments'
  // listbox or a tablist the arrows, Home and End.
  if (target && target.closest('#semantics')) return navigation && !target.closest('[role=listbox], [role=tablist]');
  const keyboard = JSON.parse(m.muplay_keyboard());
  if (keyboard.text_input) return false;
  return navigation || !keyboard.shortcuts;
}

// Installs the hook index.html calls for every key event in an embed: it returns true for an event the app must not
// see (a key given back, and its keypress and keyup). `tell(e)` posts the embed API's key event (or nothing when the
// API is off); `toHost(text)` posts reveal.js's message.
export function startGuestKeys(m, { tell, toHost }) {
  let keptOnIframe = false;  // a key was given back and nothing in the embed has taken the keyboard since
  window.addEventListener('focusin', () => { keptOnIframe = false; });
  window.addEventListener('message', (e) => {
    if (e.source !== window.parent || e.data !== 'slide:stop' || !keptOnIframe) return;
    keptOnIframe = false;
    window.parent.focus();
  });
  const givenBack = new Set();  // codes whose keydown was given back: their keypress and keyup are not the app's
  window.muplayGuestKey = (e) => {
    if (e.type !== 'keydown') {
      if (e.type === 'keyup') return givenBack.delete(e.code);
      return givenBack.has(e.code);
    }
    givenBack.delete(e.code);
    if (!givesBack(m, e)) return false;
    givenBack.add(e.code);
    tell(e);
    const call = revealCall(e);
    if (call) toHost(JSON.stringify({ method: call[0], args: call[1] }));
    document.activeElement?.blur();
    keptOnIframe = true;
    return true;
  };
}
