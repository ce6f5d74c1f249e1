// Share links and embeds. The address bar follows the experiment (history.replaceState: one history entry, however
// many edits), "Copy link" copies it, the share dialog shows the link and an <iframe> snippet, and a link pasted into
// the address bar of an open page opens. The link itself is the engine's (engine/spec/link.hpp): "#s=1.<data>&r=1",
// with the backend this page resolved written into it (auto is pinned), so it trains the same way wherever it opens;
// a small data set the spec trains on follows it as "&d=..." (web/js/tables.js).
import { pageLanguage, tr } from './language.js';
import { linkData, linkDataNote, takeLinkData } from './tables.js';

const $ = (id) => document.getElementById(id);

const PANELS = ['presets', 'editor', 'controls', 'plot', 'runs', 'status', 'phenomena', 'backend'];  // web/app/view.hpp
const EMBED_DEFAULT = new Set(['controls', 'plot']);

// The page's own address without query or fragment: links always open the full page, embeds add their parameters.
const pageUrl = () => location.origin + location.pathname;
// A link or an embed made in Chinese opens in Chinese (lang=zh); in English it names no language, so a reader's own
// browser decides.
const languageQuery = () => (pageLanguage() === 'en' ? '' : `lang=${pageLanguage()}`);
const linkUrl = (fragment) => `${pageUrl()}${languageQuery() ? `?${languageQuery()}` : ''}#${fragment}`;
const isLocal = () => ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);

// A slide is scaled up to fill the screen (reveal.js: ×1.5 at 1920×1080): scale=2 draws the embed at twice its
// resolution, so that its text stays sharp there.
function embedUrl(fragment, panels, autoplay, slides) {
  const query = `?embed=1&panels=${panels.join(',')}${autoplay ? '&autoplay=1' : ''}${slides ? '&scale=2' : ''}` +
                `${languageQuery() ? `&${languageQuery()}` : ''}`;
  return `${pageUrl()}${query}#${fragment}`;
}

const attribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// The frame for each kind of page. A text column: the column's width and a fixed aspect ratio, so that the figure
// keeps its shape on a phone and on a wide screen. A slide (reveal.js lays slides out at 960×700 and scales them):
// the room the slide has left under its title, whatever the title's size. A fixed height cannot give that: the
// default theme's h1 is 2.5 em against its h2's 1.6 em, so a frame that fits under a two-line h2 runs off the slide
// under a two-line h1. reveal.js (4 and later) sizes an `r-stretch` child of a slide to the slide's width and the
// height it has left at every layout; 480 px is the height where it does not (an older reveal.js, the frame inside
// another element).
function snippet(system, url, name) {
  const title = attribute(`\u03bcPlayground: ${name}`);
  const slides = system === 'slides';
  const style = slides ? 'width: 100%; height: 480px; border: 0' : 'width: 100%; aspect-ratio: 3 / 2; border: 0';
  const iframe = `<iframe ${slides ? 'class="r-stretch" ' : ''}src="${attribute(url)}" title="${title}" ` +
                 `style="${style}" loading="lazy"></iframe>`;
  return system === 'sphinx' ? `.. raw:: html\n\n   ${iframe}\n` : iframe;
}

// What a reader of the link or the embed sees first, in words (the page's language): the view
// (web/app/view_text.hpp) and its settings.
export function describeView(text) {
  const [tab, ...settings] = text.split(';');
  const s = Object.fromEntries(settings.map((kv) => kv.split('=')));
  switch (tab) {
    case '': case 'step':
      return tr('vs step: {metric} against the training step, one curve per run', { metric: s.metric ?? tr('the first metric') });
    case 'width': {
      const values = { quantity: s.quantity ?? 'act_delta_rms', record: s.record ?? 1 };
      return s.refs === '1' ? tr('vs width: {quantity} against the width at record {record}, with the reference slopes', values)
        : tr('vs width: {quantity} against the width at record {record}', values);
    }
    case 'lr': return tr('vs learning rate: the loss against the learning rate, one curve per width, with each width\'s eta*');
    case 'depth': return s.quantity === 'eta' ? tr('vs depth: eta* against the depth L, one line per width')
      : tr('vs depth: {quantity} against the depth L', { quantity: s.quantity ?? tr('the last stream\'s change') });
    case 'embeddings': return tr('embeddings: the learned input embeddings, projected on their two main directions');
    case 'anchor': return tr('anchor: the attention maps of a run, and the gamma sweep\'s phase plot where there is one');
    case 'phenomena':
      return tr('phenomena: the pictures of run {member} (frequencies, neurons, sharpness or the phase map)', { member: s.member ?? 0 });
    case 'parametrization': return tr('parametrization: the abc exponents of each layer');
    case 'maxlr': return tr('max LR: the largest stable learning rate against the width');
    default: return tab;
  }
}

// Copies `text`: the Clipboard API where the page may use it, else a selected textarea and execCommand.
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = Object.assign(document.createElement('textarea'), { value: text, readOnly: true });
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

// An embed option's word: the panel's name as panels= spells it, or autoplay.
function optionWord(name) {
  return { presets: tr('presets'), editor: tr('editor'), controls: tr('controls'), plot: tr('plot'), runs: tr('runs'),
           status: tr('status'), phenomena: tr('phenomena'), backend: tr('backend'), autoplay: tr('autoplay') }[name];
}

function embedOptions(onChange) {
  const box = $('embed-options');
  for (const name of [...PANELS, 'autoplay']) {
    const input = Object.assign(document.createElement('input'), {
      type: 'checkbox', id: `embed-${name}`, checked: EMBED_DEFAULT.has(name),
    });
    input.addEventListener('change', onChange);
    // The word in the page's language; data-tr keeps the English, so that a later switch turns it (web/js/language.js).
    const word = Object.assign(document.createElement('span'), { textContent: optionWord(name) });
    word.setAttribute('data-tr', name);
    const label = Object.assign(document.createElement('label'), { htmlFor: input.id });
    label.append(input, ' ', word);
    box.append(label);
  }
  return () => ({
    panels: PANELS.filter((p) => $(`embed-${p}`).checked),
    autoplay: $('embed-autoplay').checked,
  });
}

export function startShare(m, ui) {
  let current = location.hash.slice(1);
  const specName = () => JSON.parse(m.muplay_get_spec())?.name ?? 'experiment';

  // The engine's link, and the data set it trains on when that rides along (web/js/tables.js).
  const link = () => {
    const fragment = m.muplay_share_link();
    return fragment && fragment + linkData(m, () => shared.specChanged());
  };
  const fillDialog = () => {
    const fragment = link() || current;
    $('share-data').textContent = linkDataNote(m);
    $('share-data').hidden = !$('share-data').textContent;
    $('share-link').value = linkUrl(fragment);
    $('share-view').textContent = tr('A reader opens it on {view}.', { view: describeView(m.muplay_view()) });
    $('share-local').hidden = !isLocal();
    const { panels, autoplay } = chosen();
    const system = $('embed-system').value;
    const url = embedUrl(fragment, panels.length ? panels : [...EMBED_DEFAULT], autoplay, system === 'slides');
    $('embed-snippet').value = snippet(system, url, specName());
  };
  const chosen = embedOptions(fillDialog);
  $('embed-system').addEventListener('change', fillDialog);

  const copy = async (what, text) => {
    ui.status(await copyText(text) ? tr('{what} copied to the clipboard.', { what })
      : tr('Could not copy: select the {what} and copy it.', { what }));
  };
  const copyLink = () => {
    const fragment = link();
    if (!fragment) return ui.status(tr('The spec has problems: fix them first (such a link would not open).'));
    return copy(tr('Link'), linkUrl(fragment));
  };
  $('copy-link').addEventListener('click', copyLink);
  $('copy-share-link').addEventListener('click', copyLink);
  $('copy-snippet').addEventListener('click', () => copy(tr('Embed snippet'), $('embed-snippet').value));
  $('open-share').addEventListener('click', () => {
    fillDialog();
    $('share-dialog').showModal();
  });

  // A link pasted into the address bar of this open page (only a fragment change: no reload). Read from the event:
  // by the time it is handled, the address bar may already show the spec again (specChanged below).
  window.addEventListener('hashchange', async (e) => {
    const fragment = new URL(e.newURL).hash.slice(1);
    if (!fragment || fragment === current) return;
    current = fragment;
    m.muplay_open_link(await takeLinkData(fragment, ui.notice));
    const { message } = JSON.parse(m.muplay_get_errors());  // why it did not open, or that its numbers may differ
    if (message) ui.notice(message);
  });

  const shared = {
    // The address bar (and the embed's "Open in μPlayground" link) follow the spec whenever it is valid.
    specChanged() {
      const fragment = link();
      if (!fragment) return;
      current = fragment;
      if (location.hash.slice(1) !== fragment) {
        history.replaceState(history.state, '', `${location.pathname}${location.search}#${fragment}`);
      }
      $('open-full').href = linkUrl(fragment);
      if ($('share-dialog').open) fillDialog();
    },
  };
  return shared;
}
