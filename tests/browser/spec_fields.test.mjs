// The spec editor's combo boxes offer the engine's names (spec_field_choices, engine/spec/spec.hpp): task.kind opens
// on all nine task kinds, and its last, image_2d, is picked into the spec. Screenshot: build/screenshots/
// spec-fields-task-kind.png (the open combo box).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { clickImGui, openPlayground, screenshot } from './harness.mjs';

const T = { timeout: 600_000 };
let pg;
// Tall enough that the Fields tab shows the whole spec below the preset list.
before(async () => { pg = await openPlayground({ viewport: { width: 1280, height: 1700 } }); }, T);
after(async () => { await pg?.close(); });

const call = (name, ...args) => pg.page.evaluate(([n, a]) => window.muplay[n](...a), [name, args]);

// With this spec the Fields tab puts task.kind's combo box at TASK_KIND; its rows open below it, ROW pixels apart.
// (Below the preset list, one 17-pixel row per preset: 42 presets now; a new preset moves these down by a row.)
const SPEC = { version: 1, name: 'fields', model: { widths: [8] }, task: { kind: 'sin_regression' } };
const TASK_KIND = { x: 336, y: 1090 };
const FIRST_ROW = 1114, ROW = 17;

test('the task.kind combo box offers every task kind, image_2d last', T, async () => {
  assert.equal(JSON.parse(await call('muplay_load_spec', JSON.stringify(SPEC))).ok, true);
  await clickImGui(pg.page, TASK_KIND.x, TASK_KIND.y);
  await screenshot(pg.page, 'spec-fields-task-kind');
  await clickImGui(pg.page, TASK_KIND.x, FIRST_ROW + 8 * ROW);  // the ninth row
  assert.equal(JSON.parse(await call('muplay_get_spec')).task.kind, 'image_2d');
  assert.deepEqual(pg.errors, []);
});
