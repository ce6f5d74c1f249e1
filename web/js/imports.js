// The list of imported reference sets (result documents whose runs the views draw over the page's own; web/app/app.hpp:
// import_file), in the toolbar: plain HTML, so each set's ✕ is reachable with Tab and read by screen readers (the
// ImGui canvas is neither). The app holds the sets; this module redraws the list when they change and when the
// experiment changes (a set is drawn only over an experiment of its model kind and task).
import { pageLanguage, tr } from './language.js';

const $ = (id) => document.getElementById(id);

const widthRange = (widths) => (widths.length > 1 ? `n=${widths[0]}\u2013${widths.at(-1)}` : `n=${widths[0] ?? '?'}`);

function importItem(m, set, index, removed) {
  const li = document.createElement('li');
  const values = { name: set.name, runs: set.runs, widths: widthRange(set.widths), why: set.why };
  const text = Object.assign(document.createElement('span'), {
    textContent: set.drawn ? tr('{name}: {runs} runs, {widths}', values)
      : tr('{name}: {runs} runs, {widths} (not drawn: {why})', values),
  });
  const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: '\u2715' });
  remove.setAttribute('aria-label', tr('Remove the imported runs of {name}', { name: set.name }));
  remove.addEventListener('click', () => {
    m.muplay_remove_import(index);
    removed(set);
  });
  li.append(text, remove);
  return li;
}

export function startImports(m, ui) {
  const menu = $('imports-menu');
  let shown = '';
  const render = () => {
    const text = m.muplay_imports();
    if (text + pageLanguage() === shown) return;  // redrawn in the other language after a switch, too
    shown = text + pageLanguage();
    const sets = JSON.parse(text);
    menu.hidden = sets.length === 0;
    if (!sets.length) menu.open = false;
    $('imports-summary').textContent = tr('Imported ({count})', { count: sets.length });
    $('imports-list').replaceChildren(...sets.map((set, i) => importItem(m, set, i, removed)));
  };
  // The removed set's button is gone: the keyboard stays in the menu, or goes to Import… when the list is empty.
  function removed(set) {
    ui.status(tr('Removed the imported runs of {name}.', { name: set.name }));
    render();
    (menu.hidden ? $('import') : $('imports-summary')).focus();
  }
  render();
  // Cheap to poll (a few sets, redrawn only when their description changes): at once on an import or removal, and
  // every half second or so for the rest (a new experiment may draw other sets).
  let revision = -1, frames = 0;
  const tick = () => {
    if (m.muplay_imports_revision() !== revision || ++frames % 30 === 0) {
      revision = m.muplay_imports_revision();
      render();
    }
    requestAnimationFrame(tick);
  };
  tick();
}
