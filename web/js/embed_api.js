// The postMessage API through which an embedding page (lecture notes, say) drives an embed.
//
//   host -> embed   { muplay: 1, type, id?, ...fields }, type one of MESSAGES below; id (a string or number) comes
//                   back in the reply, so a host can match replies to requests.
//   embed -> host   { muplay: 1, type: 'reply', id, ok: true, result }  or  { ..., ok: false, error, errors? }
//                   { muplay: 1, type: 'event', event: 'ready' | 'state' | 'progress' | 'finished' | 'key', ... }
//                   'state', 'progress' and 'finished' are sent when they happen, also while the embed is out of view
//                   or on a hidden slide (web/js/page.js); 'key' is a key the embed gave back (web/js/guest_keys.js).
//
// Safety: only the embedding page (window.parent) is listened to, and when the embed URL names ?origin=https://host,
// only that origin (anything else is ignored, and events go to that origin only). Every message is checked against
// the fixed table below, field by field; nothing in a message is ever evaluated or used as HTML.
import { tr } from './language.js';
import { takeLinkData } from './tables.js';

const API_VERSION = 1;
const MAX_TEXT = 4 << 20;  // the JSON parser's own limit (engine/base/json.hpp)
const PROGRESS_EVERY_MS = 250;  // 'progress' events at most four times a second: a host redraws a bar, no more

// type -> { field: kind }; kinds: 'text' (a string), 'spec' (a spec object, or its JSON text).
const MESSAGES = new Map(Object.entries({
  load_spec: { spec: 'spec' },
  load_link: { link: 'text' },
  load_preset: { preset: 'text' },
  run: {},
  pause: {},
  step: {},
  reset: {},
  get_state: {},
  get_spec: {},
  get_results: {},
}));

const shown = (v) => (typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v);

function checkField(kind, value) {
  if (kind === 'spec' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
    let text;
    try {
      text = JSON.stringify(value);
    } catch {
      return { error: 'is not a JSON document' };
    }
    return text.length > MAX_TEXT ? { error: `is longer than ${MAX_TEXT} characters` } : { value: text };
  }
  if (typeof value !== 'string') return { error: `must be ${kind === 'spec' ? 'an object or a string' : 'a string'}` };
  return value.length > MAX_TEXT ? { error: `is longer than ${MAX_TEXT} characters` } : { value };
}

// Checks a message from the host. Returns { message: { type, id, ...fields } } or { error, id }.
function validateMessage(data) {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { error: 'a message must be an object' };
  const id = typeof data.id === 'string' ? data.id.slice(0, 100) : Number.isFinite(data.id) ? data.id : undefined;
  const fail = (error) => ({ error, id });
  if (data.id !== undefined && data.id !== id) return fail('id must be a string (up to 100 characters) or a number');
  if (data.muplay !== API_VERSION) return fail(`muplay must be ${API_VERSION} (the API version), not ${shown(data.muplay)}`);
  if (typeof data.type !== 'string' || !MESSAGES.has(data.type)) {
    return fail(`unknown type ${shown(data.type)}; known: ${[...MESSAGES.keys()].join(', ')}`);
  }
  const fields = MESSAGES.get(data.type);
  const message = { type: data.type, id };
  for (const key of Object.keys(data)) {
    if (key !== 'muplay' && key !== 'type' && key !== 'id' && !Object.hasOwn(fields, key)) {
      return fail(`${data.type}: unknown field ${shown(key)}`);
    }
  }
  for (const [field, kind] of Object.entries(fields)) {
    const checked = checkField(kind, data[field]);
    if (checked.error) return fail(`${data.type}: ${field} ${checked.error}`);
    message[field] = checked.value;
  }
  return { message };
}

// Takes one step and resolves once it has arrived: a run training in the worker (web/js/trainer_client.js) gets its step
// back in a message, and a reply must report it.
async function stepped(m) {
  const before = m.muplay_total_steps();
  m.muplay_step();
  const deadline = performance.now() + 30_000;
  while (m.muplay_trains_in_worker() && m.muplay_total_steps() === before && m.muplay_state() !== 'finished' &&
         performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// What each message does, through the page's hook. Resolves to the reply's result, or rejects (with .errors) on
// failure.
async function perform(m, message) {
  const outcome = (json) => {
    const r = JSON.parse(json);
    if (!r.ok) throw Object.assign(new Error(r.errors[0]), { errors: r.errors });
    return { state: m.muplay_state() };
  };
  switch (message.type) {
    case 'load_spec':  // checked first: a refused spec leaves the embed as it was
      outcome(m.muplay_check_spec(message.spec));
      return outcome(m.muplay_load_spec(message.spec));
    case 'load_link': return outcome(m.muplay_open_link(await takeLinkData(message.link, console.warn)));
    case 'load_preset': {
      const index = m.muplay_find_preset(message.preset);
      if (index < 0 || !m.muplay_load_preset(index)) throw new Error(`no valid preset ${shown(message.preset)}`);
      return { state: m.muplay_state() };
    }
    case 'run': m.muplay_run(); break;
    case 'pause': m.muplay_pause(); break;
    case 'step': await stepped(m); break;
    case 'reset': m.muplay_reset(); break;
    case 'get_spec': return { spec: JSON.parse(m.muplay_get_spec()), errors: JSON.parse(m.muplay_get_errors()).spec };
    case 'get_results': return { results: untouched(m) ? null : JSON.parse(m.muplay_get_results()) };
    default: break;  // get_state
  }
  return { state: m.muplay_state(), total_steps: m.muplay_total_steps() };
}

// The runs have not taken a step since they were built (a preset or spec loaded, a reset): there are no results yet,
// though the app's runner already lists its members.
const untouched = (m) => m.muplay_state() === 'idle' && m.muplay_total_steps() === 0;

// Each run's outcome without its series: what a 'finished' event carries.
function runSummaries(m) {
  const results = JSON.parse(m.muplay_get_results());
  return (results?.runs ?? []).map(({ width, lr, seed, status, diverged_at, steps_done, summary }) => (
    { width, lr, seed, status, diverged_at, steps_done, summary }));
}

// Starts listening when the page is framed. Returns the events' senders, or null: ready(), stateChanged(state),
// progressed() (sends a 'progress' event when the steps moved, at most every PROGRESS_EVERY_MS), keyGivenBack(e)
// (a keydown the embed gave back) and toHost(text) (any other message to the host page, e.g. reveal.js's).
export function startEmbedApi(m, options, ui) {
  if (window.parent === window) return null;
  let host = null;
  if (options.origin !== null) {
    try {
      host = new URL(options.origin).origin;
    } catch { /* reported below */ }
    if (host !== options.origin) {
      ui.notice(tr('origin={origin} is not an origin such as https://example.org, so the embed API is off.',
                   { origin: options.origin }));
      return null;
    }
  }
  const post = (message, origin) => window.parent.postMessage({ muplay: API_VERSION, ...message }, origin);
  const events = host ?? '*';

  window.addEventListener('message', async (e) => {
    if (e.source !== window.parent || (host && e.origin !== host)) return;
    if (typeof e.data !== 'object' || e.data === null || !('muplay' in e.data)) return;  // not meant for us
    const to = e.origin === 'null' ? '*' : e.origin;  // an opaque origin (sandboxed host) cannot be named
    const checked = validateMessage(e.data);
    if (checked.error) return post({ type: 'reply', id: checked.id, ok: false, error: checked.error }, to);
    try {
      return post({ type: 'reply', id: checked.message.id, ok: true, result: await perform(m, checked.message) }, to);
    } catch (error) {
      return post({ type: 'reply', id: checked.message.id, ok: false, error: error.message, errors: error.errors }, to);
    }
  });

  let progressSent = { steps: -1, planned: -1 }, progressAt = -Infinity;
  const sendProgress = () => {
    const { steps, planned } = JSON.parse(m.muplay_progress());
    if (steps === progressSent.steps && planned === progressSent.planned) return;
    if (progressSent.steps < 0 && steps === 0) return;  // nothing has moved since the embed loaded
    progressSent = { steps, planned };
    progressAt = performance.now();
    post({ type: 'event', event: 'progress', steps, planned }, events);
  };
  return {
    ready: () => post({ type: 'event', event: 'ready', version: API_VERSION, state: m.muplay_state() }, events),
    stateChanged(state) {
      if (state === 'finished') sendProgress();  // the last steps, before the end
      post({ type: 'event', event: 'state', state }, events);
      if (state === 'finished') post({ type: 'event', event: 'finished', runs: runSummaries(m) }, events);
    },
    progressed() {
      if (performance.now() - progressAt >= PROGRESS_EVERY_MS) sendProgress();
    },
    keyGivenBack: (e) => post({ type: 'event', event: 'key', key: e.key, code: e.code, shiftKey: e.shiftKey }, events),
    toHost: (text) => window.parent.postMessage(text, events),
  };
}
