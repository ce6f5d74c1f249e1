// The spec editor's combo boxes offer the engine's names (spec_field_choices, engine/spec/spec.hpp): task.kind opens
// on all ten task kinds, and its last, table, is picked into the spec. Screenshot: build/screenshots/
// spec-fields-task-kind.png (the open combo box). A key tapped between two frames (its keydown and keyup delivered
// together, as while the page trains) still reaches the field: Enter applies a typed list. The pointer on a field's
// name shows the engine's table of fields for it: the same meaning, range and default as examples/README.md's field
// table (which tests/unit/test_spec_fields.cpp checks against the table).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openPlayground, screenshot, waitFrames } from './harness.mjs';
import { centre, click, drawn, findItems, scrollIntoView, typeInto } from './ui_driver.mjs';

const T = { timeout: 600_000 };
let pg;
before(async () => { pg = await openPlayground(); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

const SPEC = { version: 1, name: 'fields', model: { widths: [8] }, task: { kind: 'sin_regression' } };

test('the task.kind combo box offers every task kind, table last', T, async () => {
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  await click(pg.page, '##task.kind');  // the driver scrolls the spec's fields to it first
  await screenshot(pg.page, 'spec-fields-task-kind');
  // The open combo box is a popup window of its own; its rows are the engine's task kinds.
  const rows = (await drawn(pg.page)).items.filter((i) => i.window.includes('##Combo')).map((i) => i.label);
  assert.equal(rows.length, 10, rows.join(', '));
  assert.equal(rows.at(-1), 'table');
  await click(pg.page, 'table', { window: '##Combo' });
  assert.equal(JSON.parse(await call('muplay_get_spec')).task.kind, 'table');
  assert.deepEqual(pg.errors, []);
});

test('Enter, down and up between two frames, applies the typed widths (ImGui 1.86 polls keys once a frame)', T, async () => {
  const { page } = pg;
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  await typeInto(page, '##model.widths', '8', { window: 'fields' });  // the field is drawn and in view
  await click(page, '##model.widths', { window: 'fields' });  // selects all it holds
  await page.keyboard.type('24', { delay: 20 });
  await waitFrames(page, 2);
  // One task dispatches both, so no frame can fall between them (emscripten's GLFW reads keyCode).
  await page.evaluate(() => {
    for (const type of ['keydown', 'keyup'])
      window.dispatchEvent(new KeyboardEvent(type, { key: 'Enter', code: 'Enter', keyCode: 13, bubbles: true }));
  });
  await waitFrames(page, 3);
  assert.deepEqual(JSON.parse(await call('muplay_get_spec')).model.widths, [24]);
  assert.deepEqual(pg.errors, []);
});

// The README's row for `path`: { default, allowed, meaning }.
function readmeRow(path) {
  const text = readFileSync(new URL('../../examples/README.md', import.meta.url), 'utf8');
  const line = text.split('\n').find((l) => l.startsWith(`| \`${path}\` |`));
  assert.ok(line, `examples/README.md has no row for ${path}`);
  const [, def, allowed, meaning] = line.split(' | ').map((c) => c.replace(/^\| |`| \|$/g, ''));
  return { default: def, allowed, meaning };
}

test('the pointer on a field name shows the range, default and meaning of the README\'s field table', T, async () => {
  const { page } = pg;
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  for (const path of ['optimizer.lr', 'schedule.batch_size', 'model.activation']) {
    const value = await scrollIntoView(page, `##${path}`, { window: 'fields' });
    // The field's name is the tree node in the same row, left of the value.
    const name = (await findItems(page, path.split('.').at(-1), { window: 'fields' }))
      .find((i) => i.rect[1] < centre(value.rect).y && i.rect[3] > centre(value.rect).y);
    assert.ok(name, `no name drawn beside ##${path}`);
    const c = centre(name.rect);
    await page.mouse.move(c.x, c.y);
    await waitFrames(page, 4);
    const help = (await drawn(page)).texts.find((t) => t.startsWith('field help: '));
    assert.ok(help, `no help while the pointer is on ${path}`);
    if (path === 'optimizer.lr') await screenshot(page, 'spec-fields-help');
    const row = readmeRow(path);
    assert.equal(help, `field help: ${row.meaning}\n${row.allowed}; default ${row.default}`);
  }
  assert.deepEqual(pg.errors, []);
});
