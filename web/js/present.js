// Presenting and zoom, the page's side (the app draws both: web/app/app.hpp). The toolbar's Present button (P and Esc
// switch too, in the app) folds the list and the editor away, enlarges the view and asks for the full screen; Ctrl +,
// Ctrl − and Ctrl 0 step the zoom of the mode the page is in, as a browser's zoom does, and this browser remembers
// both zooms. A link's present=1 opens presenting, in an embed too (which keeps its host's keys and remembers nothing).
const STEPS = [0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const STORED = 'muplay-zoom';
const $ = (id) => document.getElementById(id);

function stepped(current, key, fallback) {
  if (key === '+' || key === '=') return STEPS.find((s) => s > current + 1e-6) ?? STEPS.at(-1);
  if (key === '-' || key === '_') return [...STEPS].reverse().find((s) => s < current - 1e-6) ?? STEPS[0];
  return key === '0' ? fallback : null;
}

export function startPresenting(m, { embed, present }) {
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
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const z = zooms();
      const next = stepped(z.presenting ? z.present : z.page, e.key, z.presenting ? z.present_default : 1);
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
