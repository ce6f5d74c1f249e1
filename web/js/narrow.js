// A narrow screen (a phone held upright, or a window zoomed to 200%): the app folds the preset list and the editor
// away (App::narrow), so the view keeps the width, and the toolbar's preset menu picks presets in their place and
// names the one shown, as the list would mark it (after a link, a reload, Saved…); its Fields button shows the spec
// editor in the views' place, and again the views (App::narrow_editor). The page follows the screen as it turns or a
// window is resized. An embed shows no list anyway and is left as it is.
import { tr } from './language.js';

const NARROW = '(max-width: 640px)';  // index.html's @media rule for the toolbar names the same width

// Returns presetShown(), to call after each change of the experiment: the menu then names its preset, or its prompt.
export function startNarrow(m, { embed }) {
  if (embed) return () => {};
  const menu = document.getElementById('preset-menu');
  const presets = JSON.parse(m.muplay_list_presets());
  const prompt = new Option(tr('Preset…'), '');
  prompt.dataset.tr = 'Preset…';  // the English, for a later switch of language (web/js/language.js)
  prompt.disabled = true;
  // The presets' names are in the catalogue too: each option keeps its English the same way.
  const options = presets.map((p, i) => {
    const option = new Option(tr(p.name), String(i));
    option.dataset.tr = p.name;
    return option;
  });
  menu.append(prompt, ...options);
  menu.value = '';
  menu.disabled = false;
  menu.addEventListener('change', () => {
    const index = Number(menu.value);
    if (!m.muplay_load_preset(index)) menu.value = '';  // the app said why in its status line
  });

  const fields = document.getElementById('show-fields');
  fields.addEventListener('click', () => {
    const on = fields.getAttribute('aria-pressed') !== 'true';
    fields.setAttribute('aria-pressed', String(on));
    m.muplay_set_narrow_editor(on ? 1 : 0);
  });

  // Where the toolbar scrolls sideways, a control the keyboard reaches comes whole into view (the browser's own
  // focus scrolling leaves one that is partly in view where it is).
  document.getElementById('bar').addEventListener('focusin', (e) => {
    e.target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  });

  const screen = window.matchMedia(NARROW);
  const follow = () => m.muplay_set_narrow(screen.matches ? 1 : 0);
  screen.addEventListener('change', follow);
  follow();
  return () => {
    const index = m.muplay_preset_index();
    menu.value = index >= 0 ? String(index) : '';
  };
}
