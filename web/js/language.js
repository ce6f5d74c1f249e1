// The page's language: English or 中文. Chosen by the address's lang= parameter (links and embeds carry it), else,
// on the full page, by what this browser chose last (the toolbar's menu), else by the browser's own first language.
// Chinese comes from one catalogue, i18n/zh.json: each English text of the page, as the code writes it, to its Chinese
// (the panels read the same file: web/draw/i18n.hpp). It and the Chinese font are fetched only for a page in Chinese.
//
// The toolbar and dialogs mark what they translate: data-tr (the element's text), data-tr-html (its markup, for a
// paragraph with <kbd> or <a> inside: the catalogue's own text, never anything from a link or a file), data-tr-title
// and data-tr-aria (its title and aria-label). The English stays in the element, for the way back. A link with
// data-href-zh points there in Chinese.

const STORAGE_KEY = 'muplay-lang';
export const LANGUAGES = { en: 'English', zh: '中文' };
const CHINESE_FONT = '/fonts/zh.ttf';  // web/draw/font.hpp: kChineseFontFile

let current = 'en';
let chinese = null;  // the catalogue, once fetched
let fetching = null;

// `english` in the page's language; `{name}` placeholders are filled from `values` after the lookup.
export function tr(english, values = {}) {
  const text = (current === 'zh' && chinese?.[english]) || english;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export const pageLanguage = () => current;

// The language to start in, and a complaint when the address asks for one the page does not have.
export function initialLanguage(search, embed) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked !== null && asked in LANGUAGES) return { language: asked };
  let kept = null;
  try {
    kept = embed ? null : localStorage.getItem(STORAGE_KEY);
  } catch { /* storage blocked: the browser's language decides */ }
  const browser = /^zh\b/i.test(navigator.languages?.[0] ?? navigator.language ?? '') ? 'zh' : 'en';
  const language = kept in LANGUAGES ? kept : browser;
  return { language, complaint: asked === null ? '' : `This address asks for the language "${asked}"; ` +
    `the page has English (lang=en) and 中文 (lang=zh).` };
}

async function fetchChinese() {
  fetching ??= (async () => {
    const [texts, font] = await Promise.all([fetch('i18n/zh.json'), fetch('fonts/zh.ttf')].map(async (request) => {
      const r = await request;
      if (!r.ok) throw new Error(`${r.url.split('/').slice(-2).join('/')}: HTTP ${r.status}`);
      return r;
    }));
    return { catalogue: await texts.json(), font: new Uint8Array(await font.arrayBuffer()) };
  })();
  try {
    return await fetching;
  } catch (e) {
    fetching = null;  // a later switch asks again
    throw e;
  }
}

function translateHtml() {
  for (const [attribute, property] of [['data-tr', 'textContent'], ['data-tr-html', 'innerHTML']]) {
    for (const element of document.querySelectorAll(`[${attribute}]`)) {
      // Whitespace runs squashed, as tests/node/i18n_strings.mjs extracts the text: the source's line breaks are no key.
      const english = element.getAttribute(attribute) || element[property].replace(/\s+/g, ' ').trim();
      element.setAttribute(attribute, english);  // kept for the way back
      element[property] = tr(english);
    }
  }
  for (const [attribute, target] of [['data-tr-title', 'title'], ['data-tr-aria', 'aria-label']]) {
    for (const element of document.querySelectorAll(`[${attribute}]`)) {
      const english = element.getAttribute(attribute) || element.getAttribute(target);
      element.setAttribute(attribute, english);
      element.setAttribute(target, tr(english));
    }
  }
  // A link to a page with a Chinese twin (data-href-zh: the lecture notes) follows the language.
  for (const link of document.querySelectorAll('a[data-href-zh]')) {
    link.dataset.hrefEn ??= link.getAttribute('href');
    link.setAttribute('href', current === 'zh' ? link.dataset.hrefZh : link.dataset.hrefEn);
  }
  document.documentElement.lang = current === 'zh' ? 'zh-CN' : 'en';
}

// Switches the page (HTML and, once the app runs, its panels) to `language`. Rejects, leaving the page as it was,
// when the Chinese files cannot be fetched.
export async function setLanguage(language, m) {
  const files = language === 'zh' ? await fetchChinese() : null;
  if (files) chinese = files.catalogue;
  current = language;
  translateHtml();
  if (!m) return;
  if (files) {
    const fs = window.Module.FS;
    fs.mkdirTree('/i18n');
    fs.mkdirTree('/fonts');
    fs.writeFile('/i18n/zh.json', JSON.stringify(files.catalogue));
    fs.writeFile(CHINESE_FONT, files.font);
  }
  const { ok, errors } = JSON.parse(m.muplay_set_language(language));
  if (!ok) throw new Error(errors.join('; '));
}

// The toolbar's language menu: switching keeps the experiment, its runs and the view; the full page remembers it.
export function startLanguageMenu(m, ui, { embed }) {
  const menu = document.getElementById('language');
  menu.value = current;
  menu.disabled = false;
  menu.addEventListener('change', async () => {
    const language = menu.value;
    try {
      await setLanguage(language, m);
    } catch (e) {
      menu.value = current;
      ui.notice(tr('The page could not switch to {language}: {why}.', { language: LANGUAGES[language], why: e.message }));
      return;
    }
    const address = new URL(location.href);  // an address that names a language would undo the choice on reload
    if (address.searchParams.has('lang')) {
      address.searchParams.set('lang', language);
      history.replaceState(history.state, '', address);
    }
    try {
      if (!embed) localStorage.setItem(STORAGE_KEY, language);
    } catch { /* storage blocked: the choice lasts until the page closes */ }
  });
}
