// The shown view's figure as text, for screen readers and keyboard users (web/draw/figure_text.hpp builds it from the
// data the view draws): a focusable element over the view (#figure, role="figure", named after the plot, described by
// the summary) holding the summary and the table of what is drawn, visually hidden but in the accessibility tree; and
// a polite live region (#figure-live) that says the summary when a run starts, at each milestone (a width whose runs
// all ended) and when it stops, never on every frame. Export → View data (CSV) writes the same table (files.js).
//
// The app's figure changes with every frame that trains; the page polls its revision (a number) and rebuilds the DOM
// only when it moved, a few times a second at most.
import { tr } from './language.js';

const $ = (id) => document.getElementById(id);

const POLL_MS = 250;

function cell(tag, text, scope) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (scope) c.scope = scope;
  return c;
}

// The table: a heading row (th scope=col), then a row per entry whose first cell heads its row (th scope=row).
function fillTable(table, figure) {
  table.querySelector('caption').textContent = figure.caption;
  const head = table.querySelector('thead');
  const body = table.querySelector('tbody');
  const headings = document.createElement('tr');
  for (const name of figure.columns) headings.append(cell('th', name, 'col'));
  head.replaceChildren(headings);
  body.replaceChildren(...figure.rows.map((row) => {
    const tr_ = document.createElement('tr');
    row.forEach((text, i) => tr_.append(i === 0 ? cell('th', text, 'row') : cell('td', text)));
    return tr_;
  }));
}

// Places the figure element over the view's area of the canvas (the rectangle is in CSS pixels from the canvas'
// top left corner).
function place(element, rect) {
  const canvas = $('canvas').getBoundingClientRect();
  Object.assign(element.style, {
    left: `${canvas.left + rect.x0}px`,
    top: `${canvas.top + rect.y0}px`,
    width: `${Math.max(0, rect.x1 - rect.x0)}px`,
    height: `${Math.max(0, rect.y1 - rect.y0)}px`,
  });
}

// When to speak: a run starts (training turns on), a milestone is reached while it trains (in the same view), the
// run stops. A new view or a new sweep (fewer milestones) only resets the count. Returns announce(figure).
export function makeAnnouncer(say) {
  let view = null;
  let training = false;
  let milestones = 0;
  return (figure) => {
    let words = null;
    if (figure.training && !training) words = tr('Run started. {summary}', { summary: figure.summary });
    else if (!figure.training && training) words = tr('Run stopped. {summary}', { summary: figure.summary });
    else if (figure.training && figure.view === view && figure.milestones > milestones) words = figure.summary;
    view = figure.view;
    training = figure.training;
    milestones = figure.milestones;
    if (words && figure.summary) say(words);
  };
}

// Starts following the app's figure. Returns {current(): the last figure text, say(text): speak through the live
// region, element: the figure element}.
export function startFigureText(m) {
  const element = $('figure');
  const live = $('figure-live');
  const say = (text) => { live.textContent = text; };
  const announce = makeAnnouncer(say);
  let revision = -1;
  let current = null;
  const show = (figure) => {
    element.hidden = !figure.summary;
    element.setAttribute('aria-label', figure.name
      ? tr('{name} (press A to hear it; arrows move between points and curves)', { name: figure.name }) : '');
    $('figure-summary').textContent = figure.summary;
    fillTable($('figure-table'), figure);
    place(element, figure.rect);
  };
  const poll = () => {
    const now = m.muplay_figure_text_revision();
    if (now === revision) return;
    revision = now;
    current = JSON.parse(m.muplay_figure_text());
    show(current);
    announce(current);
  };
  setInterval(poll, POLL_MS);
  window.addEventListener('resize', () => { if (current) place(element, current.rect); });
  poll();
  return { current: () => current, say, element };
}

// The figure's table as CSV (RFC 4180: fields with a comma, quote or line break quoted, quotes doubled), its
// headings first.
export function figureCsv(figure) {
  const field = (text) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  return [figure.columns, ...figure.rows].map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}
