// Drives the page in two more browser engines besides Chromium, through one small interface:
//   Firefox ESR (Gecko), through puppeteer-core over WebDriver BiDi (the system's /usr/bin/firefox-esr; puppeteer-core
//     never downloads a browser, and the `puppeteer` package, which would, is not used);
//   WebKitGTK (WebKit), through WebKitWebDriver (W3C WebDriver classic over HTTP, a small client below) and its
//     MiniBrowser.
// Both run in a window on a private Xvfb display (software GL: Mesa llvmpipe), started here on a free display number
// and stopped at the end: headless Firefox ESR offers no WebGL2, and WebKitGTK's MiniBrowser has no headless mode at
// all (without a display it stops with "cannot open display").
//
//   const b = await launchEngine('firefox' | 'webkit')   -> { name, version, display, top, frame(sel), goto(url),
//                                                              screenshot(name), errors(), close() }
//   Firefox also has b.page: puppeteer's page, for real mouse, wheel and keyboard input (page.mouse, page.keyboard).
//   b.top / b.frame('iframe')  -> a context: eval(fn, ...args), waitFor(fn, arg, options), click(selector)
// `fn` is a function whose source runs in the page (like playwright's page.evaluate): it sees only its JSON arguments.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SCREENSHOTS, SITE } from './harness.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';
export const XVFB = '/usr/bin/Xvfb';
export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';

// WebKitGTK's MiniBrowser: /usr/lib/<multiarch>/webkit2gtk-4.x/MiniBrowser (Debian's libwebkit2gtk-4.1-0 ships it).
export function miniBrowser() {
  for (const lib of readdirSync('/usr/lib').filter((d) => d.endsWith('-linux-gnu')).map((d) => `/usr/lib/${d}`)) {
    for (const dir of readdirSync(lib).filter((d) => /^webkit2?gtk-[0-9.]+$/.test(d)).sort().reverse()) {
      if (existsSync(`${lib}/${dir}/MiniBrowser`)) return `${lib}/${dir}/MiniBrowser`;
    }
  }
  return null;
}

// Why an engine cannot run on this machine (a missing program), or null when it can.
export function missing(name) {
  const need = name === 'firefox' ? [FIREFOX, XVFB] : [WEBKIT_DRIVER, XVFB];
  const absent = need.filter((p) => !existsSync(p));
  if (name === 'webkit' && !miniBrowser()) absent.push('WebKitGTK MiniBrowser (/usr/lib/*/webkit2gtk-4.*/MiniBrowser)');
  return absent.length ? `not installed: ${absent.join(', ')} (scripts/setup installs them on Debian)` : null;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Stops a child process: SIGTERM, then SIGKILL if it has not exited within `ms`.
async function stop(child, ms = 5000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(ms).then(() => false)])) return;
  child.kill('SIGKILL');
  await exited;
}

// An X server of our own: Xvfb picks a free display number itself (-displayfd writes it to fd 3).
export async function startXvfb({ width = 1600, height = 1000 } = {}) {
  const xvfb = spawn(XVFB, ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'],
                     { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] });
  let stderr = '';
  xvfb.stderr.on('data', (d) => { stderr += d; });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`Xvfb did not start in 20 s: ${stderr}`)), 20_000);
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) { clearTimeout(timer); resolve(`:${out.trim()}`); }
    });
    xvfb.once('exit', (code) => { clearTimeout(timer); reject(new Error(`Xvfb exited (${code}): ${stderr}`)); });
  });
  return { display, close: () => stop(xvfb) };
}

// Saves a screenshot (PNG bytes) as build/screenshots/NAME.png and returns the bytes.
function save(name, png) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(path.join(SCREENSHOTS, `${name}.png`), png);
  return png;
}

// Polls `fn(arg)` in a context until it returns something truthy; fails after `timeout` ms naming `what`.
async function poll(context, fn, arg, { timeout = 120_000, polling = 100, what } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await context.eval(fn, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what ?? String(fn)}`);
    await sleep(polling);
  }
}

// --- Firefox ESR (puppeteer-core, WebDriver BiDi) -----------------------------------------------------------------
async function launchFirefox({ headless = false, viewport }) {
  const { default: puppeteer } = await import('puppeteer-core');
  const xvfb = headless ? null : await startXvfb();
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX,
      headless,
      protocol: 'webDriverBiDi',
      defaultViewport: viewport,
      env: { ...process.env, DISPLAY: xvfb?.display ?? '', MOZ_CRASHREPORTER_DISABLE: '1' },
      // Nothing to phone home to here; a fresh profile per launch (puppeteer-core makes one and removes it).
      extraPrefsFirefox: { 'app.update.disabledForTesting': true, 'browser.shell.checkDefaultBrowser': false,
                           'datareporting.policy.dataSubmissionEnabled': false, 'toolkit.telemetry.enabled': false },
      timeout: 120_000,
      protocolTimeout: 300_000,
    });
    const page = (await browser.pages())[0] ?? await browser.newPage();
    page.setDefaultTimeout(120_000);
    const errors = [];
    page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
    page.on('pageerror', (err) => errors.push(String(err)));
    const context = (frame) => {
      const c = {
        eval: async (fn, ...args) => (await frame()).evaluate(fn, ...args),
        waitFor: (fn, arg, options) => poll(c, fn, arg, options),
        click: async (selector) => (await frame()).click(selector),
      };
      return c;
    };
    return {
      name: 'firefox',
      version: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}`,
      display: xvfb?.display ?? 'headless',
      top: context(() => page.mainFrame()),
      page,
      // The document of the first iframe that matches a CSS selector.
      frame: (selector) => context(async () => {
        const f = await (await page.$(selector))?.contentFrame();
        if (!f) throw new Error(`no frame ${selector}`);
        return f;
      }),
      goto: (url) => page.goto(url, { waitUntil: 'load', timeout: 120_000 }),
      screenshot: async (name) => save(name, Buffer.from(await page.screenshot())),
      errors: () => [...errors],
      close: async () => {
        await browser.close().catch(() => {});
        await xvfb?.close();
      },
    };
  } catch (e) {
    await browser?.close().catch(() => {});
    await xvfb?.close();
    throw e;
  }
}

// --- WebKitGTK (WebKitWebDriver, WebDriver classic) --------------------------------------------------------------
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';  // the W3C element reference key

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// WebDriver classic has no console log: a copy of build/site whose index.html loads, first of all, a script that
// records console.error, uncaught errors, unhandled rejections, resources that failed to load and CSP violations in
// window.__engineErrors. Everything else is build/site itself (symbolic links). The script is served from the page's
// own origin, which the page's Content-Security-Policy allows ('self').
export const ERROR_RECORDER = `(() => {
  const errors = window.__engineErrors = [];
  const error = console.error;
  console.error = function (...args) { errors.push(args.map(String).join(' ')); return error.apply(this, args); };
  addEventListener('error', (e) => errors.push(e.target && e.target !== window
    ? 'failed to load ' + (e.target.src || e.target.href || e.target.tagName) : 'uncaught: ' + e.message), true);
  addEventListener('unhandledrejection', (e) => errors.push('unhandled rejection: ' + (e.reason?.message ?? e.reason)));
  addEventListener('securitypolicyviolation', (e) => errors.push('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));
})();
`;

export function siteWithErrorRecorder() {
  const dir = mkdtempSync(path.join(tmpdir(), 'muplay-site-'));
  for (const entry of readdirSync(SITE)) {
    if (entry !== 'index.html') symlinkSync(path.join(SITE, entry), path.join(dir, entry));
  }
  const html = readFileSync(path.join(SITE, 'index.html'), 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy"[^>]*>/);
  if (!csp) throw new Error('build/site/index.html has no Content-Security-Policy meta tag');
  writeFileSync(path.join(dir, 'index.html'),
                html.replace(csp[0], `${csp[0]}\n<script src="engine-errors.js"></script>`));
  writeFileSync(path.join(dir, 'engine-errors.js'), ERROR_RECORDER);
  return { root: dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function launchWebKit({ viewport }) {
  const xvfb = await startXvfb();
  const port = await freePort();
  const env = { ...process.env, DISPLAY: xvfb.display };
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let driverLog = '';
  driver.stderr.on('data', (d) => { driverLog = (driverLog + d).slice(-4000); });
  const base = `http://127.0.0.1:${port}`;
  const call = async (method, route, body) => {
    const response = await fetch(base + route, {
      method, headers: { 'content-type': 'application/json; charset=utf-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`WebDriver ${method} ${route}: ${json.value?.error}: ${json.value?.message}`);
    return json.value;
  };
  let session;
  const close = async () => {
    if (session) await call('DELETE', `/session/${session}`).catch(() => {});
    await stop(driver);
    await xvfb.close();
  };
  try {
    for (let i = 0; ; i++) {  // the driver listens within a moment
      try { if ((await call('GET', '/status')).ready !== undefined) break; } catch (e) {
        if (i > 200) throw new Error(`WebKitWebDriver did not answer: ${e.message}; ${driverLog}`);
      }
      await sleep(50);
    }
    const created = await call('POST', '/session', { capabilities: { alwaysMatch: {
      'webkitgtk:browserOptions': { binary: miniBrowser(), args: ['--automation'] },
      timeouts: { script: 300_000, pageLoad: 120_000, implicit: 0 },
    } } });
    session = created.sessionId;
    const s = `/session/${session}`;
    await call('POST', `${s}/window/rect`, { width: viewport.width, height: viewport.height });

    // Commands act on the driver's current frame: each context switches to its own first.
    let current = null;  // null: the top-level document; else the CSS selector of an iframe in it
    const enter = async (frame) => {
      if (frame === current) return;
      await call('POST', `${s}/frame`, { id: null });
      current = null;
      if (frame !== null) {
        const element = await call('POST', `${s}/element`, { using: 'css selector', value: frame });
        await call('POST', `${s}/frame`, { id: element });
        current = frame;
      }
    };
    const context = (frame) => {
      const c = {
        async eval(fn, ...args) {
          await enter(frame);
          const script = `const done = arguments[arguments.length - 1];
            Promise.resolve().then(() => (${fn}).apply(null, ${JSON.stringify(args)}))
              .then((v) => done({ ok: v === undefined ? null : v }), (e) => done({ error: String(e && e.stack || e) }));`;
          const r = await call('POST', `${s}/execute/async`, { script, args: [] });
          if (r.error !== undefined) throw new Error(`in WebKit: ${r.error}`);
          return r.ok;
        },
        waitFor: (fn, arg, options) => poll(c, fn, arg, options),
        async click(selector) {
          await enter(frame);
          const element = await call('POST', `${s}/element`, { using: 'css selector', value: selector });
          await call('POST', `${s}/element/${element[ELEMENT]}/click`, {});
        },
      };
      return c;
    };
    const top = context(null);
    return {
      name: 'webkit',
      version: `WebKitGTK ${created.capabilities.browserVersion} (MiniBrowser)`,
      display: xvfb.display,
      top,
      frame: (selector) => context(selector),
      async goto(url) {
        await enter(null);
        await call('POST', `${s}/url`, { url });
      },
      async screenshot(name) {
        await enter(null);
        return save(name, Buffer.from(await call('GET', `${s}/screenshot`), 'base64'));
      },
      // Errors recorded by the top document's recorder (an iframe's are read from its own context: frameErrors).
      errors: () => top.eval(() => window.__engineErrors ?? ['the error recorder did not run']),
      frameErrors: (selector) => context(selector).eval(() => window.__engineErrors ?? ['the error recorder did not run']),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

// Opens one browser of engine `name` ('firefox' or 'webkit'); options: headless (Firefox only), viewport.
export function launchEngine(name, { headless = false, viewport = { width: 1280, height: 800 } } = {}) {
  if (name === 'firefox') return launchFirefox({ headless, viewport });
  if (name === 'webkit') return launchWebKit({ viewport });
  throw new Error(`unknown engine ${name}`);
}

// Runs MiniBrowser without a display and returns what it says (WebKitGTK's headless check).
export function miniBrowserWithoutDisplay() {
  const env = { ...process.env };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  const r = spawnSync(miniBrowser(), ['--automation'], { env, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}
