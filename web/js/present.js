// Presenting and zoom, the page's side (the app draws both: web/app/app.hpp). The toolbar's Present button (P and Esc
// switch too, in the app) folds the list and the editor away, enlarges the view and asks for the full screen; Alt +,
// Alt − and Alt 0 step the panels' zoom of the mode the page is in, and this browser remembers both zooms. Ctrl +,
// Ctrl − and Ctrl 0 stay the browser's: its zoom enlarges the toolbar and the dialogs too (the panels follow it, as
// they are laid out in CSS pixels). A link's present=1 opens presenting, in an embed too (which keeps its host's keys
// and remembers nothing).
const STEPS = [0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const STORED = 'muplay-zoom';
const $ = (id) => document.getElementById(id);

// The zoom keys by their place on the keyboard: with Alt held, a Mac's keys type other characters (≠, –, º).
const ZOOM_KEYS = { Equal: '+', NumpadAdd: '+', Minus: '-', NumpadSubtract: '-', Digit0: '0', Numpad0: '0' };

export function zoomKey(e) {
  if (!e.altKey || e.ctrlKey || e.metaKey) return null;
  return ZOOM_KEYS[e.code] ?? null;
}

function stepped(current, key, fallback) {
  if (key === '+') return STEPS.find((s) => s > current + 1e-6) ?? STEPS.at(-1);
  if (key === '-') return [...STEPS].reverse().find((s) => s < current - 1e-6) ?? STEPS[0];
  return key === '0' ? fallback : null;
}

// prefers-reduced-motion: the app then draws training's progress at most once a second (App::reduced_motion), and
// index.html's CSS runs no transition; followed as the reader changes the setting.
function followReducedMotion(m) {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)');
  const follow = () => m.muplay_set_reduced_motion(reduce.matches ? 1 : 0);
  reduce.addEventListener('change', follow);
  follow();
}

export function startPresenting(m, { embed, present }) {
  followReducedMotion(m);
  const zooms = () => JSON.parse(m.muplay_zooms());
  if (!embed) {
    try {
      const kept = JSON.parse(localStorage.getItem(STORED)) ?? {};
      m.muplay_set_zooms(Number(kept.page ?? NaN), Number(kept.present ?? NaN));
    } catch { /* nothing kept, or storage off: the defaults */ }
  }
  if (present) m.muplay_set_presenting(1);
  const remember = () => {
    const { page, present: shown } = zooms();
    try { localStorage.setItem(STORED, JSON.stringify({ page, present: shown })); } catch { /* storage off */ }
  };

  let fullScreenAsked = false;
  $('present').addEventListener('click', () => {
    const on = m.muplay_presenting() !== 1;
    m.muplay_set_presenting(on ? 1 : 0);
    if (on && document.documentElement.requestFullscreen) {
      fullScreenAsked = true;
      document.documentElement.requestFullscreen().catch(() => { fullScreenAsked = false; });
    } else if (!on && document.fullscreenElement) {
      document.exitFullscreen().catch(() => {});
    }
  });
  // The browser's Esc leaves the full screen before the page sees the key: it leaves presenting with it.
  document.addEventListener('fullscreenchange', () => {
    if (document.fullscreenElement || !fullScreenAsked) return;
    fullScreenAsked = false;
    m.muplay_set_presenting(0);
  });
  if (!embed) {
    window.addEventListener('keydown', (e) => {
      const key = zoomKey(e);
      if (key === null) return;
      const z = zooms();
      const next = stepped(z.presenting ? z.present : z.page, key, z.presenting ? z.present_default : 1);
      if (next === null) return;
      e.preventDefault();
      m.muplay_set_zooms(z.presenting ? z.page : next, z.presenting ? next : z.present);
      remember();
    }, true);
  }
  // The toolbar follows the app (P and Esc switch there): Present pressed, the other controls folded away.
  let shown = null;
  const follow = () => {
    const on = m.muplay_presenting() === 1;
    if (on !== shown) {
      shown = on;
      document.documentElement.classList.toggle('presenting', on);
      $('present').setAttribute('aria-pressed', String(on));
      if (!on && fullScreenAsked && document.fullscreenElement) document.exitFullscreen().catch(() => {});
    }
    requestAnimationFrame(follow);
  };
  follow();
}
