// The engine's layers include only downward, and no two modules include each other, directly or around a circle.
//
// LAYERS below is the one declaration of the order (engine/README.md, "Where things live"): a file in
// engine/<layer>/ may include headers of its own layer and of the layers before it; web/ sits above the whole engine,
// in layers of its own (draw/, views/, app/, then the entry points in web/ itself: web/README.md, "Where things
// live"); the engine never includes web/ or ImGui. A module is a header and its source (engine/run/run.hpp + run.cpp); within
// and across layers the modules' include graph has no cycle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LAYERS = ['base', 'kernels', 'param', 'task', 'model', 'metrics', 'spec', 'gpu', 'run', 'analysis', 'export', 'cli',
                       'web/draw', 'web/views', 'web/app', 'web'];

// "engine/run/run.cpp" → {layer: "run", module: "run/run"}; "web/app/app.cpp" → {layer: "web/app", module:
// "web/app/app"}; "web/main.cpp" → {layer: "web", module: "web/main"}.
function place(file) {
  const parts = file.split('/');
  const base = parts.at(-1).replace(/\.(hpp|cpp|h)$/, '');
  if (parts[0] === 'web') {
    const layer = parts.length === 3 ? `web/${parts[1]}` : parts.length === 2 ? 'web' : null;
    return { layer, module: `${layer}/${base}` };
  }
  return { layer: parts.length === 3 ? parts[1] : null, module: `${parts[1]}/${base}` };
}

// Problems of a map {file: [quoted include paths]}: files outside a layer, upward or unknown includes, cycles.
export function layeringProblems(includes) {
  const problems = [];
  const edges = new Map();  // module → Set of modules it includes
  for (const [file, targets] of Object.entries(includes)) {
    const from = place(file);
    if (!LAYERS.includes(from.layer)) { problems.push(`${file}: not in a layer folder (${LAYERS.join(', ')})`); continue; }
    if (!edges.has(from.module)) edges.set(from.module, new Set());
    for (const target of targets) {
      if (!/^(engine|web)\//.test(target)) {
        if (!from.layer.startsWith('web') && /imgui/i.test(target)) problems.push(`${file}: the engine includes ${target}`);
        continue;
      }
      const to = place(target);
      if (!LAYERS.includes(to.layer)) { problems.push(`${file}: includes ${target}, which is in no layer`); continue; }
      if (LAYERS.indexOf(to.layer) > LAYERS.indexOf(from.layer))
        problems.push(`${file}: includes ${target} from the higher layer ${to.layer} (${from.layer} is below it)`);
      if (to.module !== from.module) edges.get(from.module).add(to.module);
    }
  }
  // Cycles: depth-first search; a module met again while still on the stack closes a circle.
  const state = new Map();  // module → 'open' | 'done'
  const stack = [];
  const visit = (m) => {
    state.set(m, 'open');
    stack.push(m);
    for (const next of edges.get(m) ?? []) {
      if (state.get(next) === 'open') problems.push(`include cycle: ${[...stack.slice(stack.indexOf(next)), next].join(' → ')}`);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of [...edges.keys()].sort()) if (!state.has(m)) visit(m);
  return problems;
}

function sourceFiles(dir) {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return name === 'data' ? [] : sourceFiles(rel);
    return /\.(hpp|cpp|h)$/.test(name) ? [rel] : [];
  });
}

function readIncludes(files) {
  return Object.fromEntries(files.map((f) => [f, [...readFileSync(path.join(ROOT, f), 'utf8')
    .matchAll(/^\s*#\s*include\s*[<"]([^>"]+)[>"]/gm)].map((m) => m[1])]));
}

test('engine/ and web/ include only downward, with no include cycle', () => {
  const problems = layeringProblems(readIncludes([...sourceFiles('engine'), ...sourceFiles('web')]));
  assert.deepEqual(problems, []);
});

test('the check finds an upward include, a cycle and a file outside the layers', () => {
  const problems = layeringProblems({
    'engine/model/mlp.cpp': ['engine/model/mlp.hpp', 'engine/run/runner.hpp'],
    'engine/run/runner.hpp': ['engine/model/mlp.hpp'],
    'engine/task/a.hpp': ['engine/task/b.hpp'],
    'engine/task/b.cpp': ['engine/task/a.hpp'],
    'engine/spec/spec.cpp': ['imgui.h'],
    'engine/loose.cpp': [],
    'web/draw/plot.cpp': ['web/views/step_view.hpp'],
  });
  assert.deepEqual(problems, [
    'engine/model/mlp.cpp: includes engine/run/runner.hpp from the higher layer run (model is below it)',
    'engine/spec/spec.cpp: the engine includes imgui.h',
    'engine/loose.cpp: not in a layer folder (base, kernels, param, task, model, metrics, spec, gpu, run, analysis, ' +
      'export, cli, web/draw, web/views, web/app, web)',
    'web/draw/plot.cpp: includes web/views/step_view.hpp from the higher layer web/views (web/draw is below it)',
    'include cycle: model/mlp → run/runner → model/mlp',
    'include cycle: task/a → task/b → task/a',
  ]);
});
