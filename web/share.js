// Share links and embeds. The address bar follows the experiment (history.replaceState: one history entry, however
// many edits), "Copy link" copies it, the share dialog shows the link and an <iframe> snippet, and a link pasted into
// the address bar of an open page opens. The link itself is the engine's (engine/spec/link.hpp): "#s=1.<data>&r=1",
// with the backend this page resolved written into it (auto is pinned), so it trains the same way wherever it opens.
const $ = (id) => document.getElementById(id);

const PANELS = ['presets', 'editor', 'controls', 'plot', 'runs', 'status', 'phenomena'];  // web/view.hpp
const EMBED_DEFAULT = new Set(['controls', 'plot']);

// The page's own address without query or fragment: links always open the full page, embeds add their parameters.
const pageUrl = () => location.origin + location.pathname;
const linkUrl = (fragment) => `${pageUrl()}#${fragment}`;

function embedUrl(fragment, panels, autoplay) {
  const query = `?embed=1&panels=${panels.join(',')}${autoplay ? '&autoplay=1' : ''}`;
  return `${pageUrl()}${query}#${fragment}`;
}

const attribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function iframeSnippet(url, name) {
  return `<iframe src="${attribute(url)}" title="${attribute(`\u03bcPlayground: ${name}`)}" width="720" height="460" ` +
         'style="border: 0; max-width: 100%" loading="lazy"></iframe>';
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

function embedOptions(onChange) {
  const box = $('embed-options');
  for (const name of [...PANELS, 'autoplay']) {
    const input = Object.assign(document.createElement('input'), {
      type: 'checkbox', id: `embed-${name}`, checked: EMBED_DEFAULT.has(name),
    });
    input.addEventListener('change', onChange);
    const label = Object.assign(document.createElement('label'), { htmlFor: input.id, textContent: ` ${name}` });
    label.prepend(input);
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

  const fillDialog = () => {
    const fragment = m.muplay_share_link() || current;
    $('share-link').value = linkUrl(fragment);
    const { panels, autoplay } = chosen();
    $('embed-snippet').value = iframeSnippet(embedUrl(fragment, panels.length ? panels : [...EMBED_DEFAULT], autoplay),
                                             specName());
  };
  const chosen = embedOptions(fillDialog);

  const copy = async (what, text) => {
    ui.status(await copyText(text) ? `${what} copied to the clipboard.` : `Could not copy: select the ${what} and copy it.`);
  };
  const copyLink = () => {
    const fragment = m.muplay_share_link();
    if (!fragment) return ui.status('The spec has problems: fix them first (such a link would not open).');
    return copy('Link', linkUrl(fragment));
  };
  $('copy-link').addEventListener('click', copyLink);
  $('copy-share-link').addEventListener('click', copyLink);
  $('copy-snippet').addEventListener('click', () => copy('Embed snippet', $('embed-snippet').value));
  $('open-share').addEventListener('click', () => {
    fillDialog();
    $('share-dialog').showModal();
  });

  // A link pasted into the address bar of this open page (only a fragment change: no reload). Read from the event:
  // by the time it is handled, the address bar may already show the spec again (specChanged below).
  window.addEventListener('hashchange', (e) => {
    const fragment = new URL(e.newURL).hash.slice(1);
    if (!fragment || fragment === current) return;
    current = fragment;
    m.muplay_open_link(fragment);
    const { message } = JSON.parse(m.muplay_get_errors());  // why it did not open, or that its numbers may differ
    if (message) ui.notice(message);
  });

  return {
    // The address bar (and the embed's "Open in μPlayground" link) follow the spec whenever it is valid.
    specChanged() {
      const fragment = m.muplay_share_link();
      if (!fragment) return;
      current = fragment;
      if (location.hash.slice(1) !== fragment) {
        history.replaceState(history.state, '', `${location.pathname}${location.search}#${fragment}`);
      }
      $('open-full').href = linkUrl(fragment);
      if ($('share-dialog').open) fillDialog();
    },
  };
}
