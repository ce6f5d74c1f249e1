// Export and import. Downloads: the spec (JSON), the runs' metrics (CSV) and the result document (JSON), written by
// the engine exactly as `muplay run --out --csv` writes them, the plot as PNG (its pixels as drawn, read back by
// the app), the shown view's data (CSV: its figure's table), and the spec as a PyTorch project (a zip of `muplay
// export torch`'s files). Import: a spec or result file, from the file picker or dropped anywhere on the page; a
// result document's runs are drawn over the page's (listed by web/js/imports.js); a data set (CSV, .npy, .npz) opens
// in the Data window (web/js/tables.js).
import { figureCsv } from './figure_text.js';
import { tr } from './language.js';
import { importTable, isTableFile } from './tables.js';
import { storedZip } from './zip.js';

const $ = (id) => document.getElementById(id);

const MAX_IMPORT_BYTES = 4 << 20;  // engine/base/json.hpp's kMaxTextBytes: the parser refuses more anyway

// A file name from the experiment's name: "muP on the sin toy" -> "mup-on-the-sin-toy".
export function fileStem(name) {
  const stem = String(name ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return stem || 'experiment';
}

function download(fileName, blob) {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

// The plot's pixels as a PNG blob: the app copies them out of the next frame it draws (web/main.cpp).
async function plotPng(m) {
  if (!m.muplay_capture_plot()) throw new Error(tr('no plot is on screen'));
  for (let frames = 0; frames < 120; frames++) {
    await nextFrame();
    const p = JSON.parse(m.muplay_plot_pixels());
    if (!p.ready) continue;
    const pixels = new Uint8ClampedArray(window.Module.HEAPU8.buffer, p.pointer, p.width * p.height * 4).slice();
    const canvas = Object.assign(document.createElement('canvas'), { width: p.width, height: p.height });
    canvas.getContext('2d').putImageData(new ImageData(pixels, p.width, p.height), 0, 0);
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(tr('PNG encoding failed')))),
                                                          'image/png'));
  }
  throw new Error(tr('the plot was not drawn in time'));
}

// The spec as a PyTorch project (`muplay export torch`'s files), in a folder named after the experiment. A spec the
// exporter cannot express is refused with the fields it cannot (shown as an export failure).
function torchZip(m, stem) {
  const project = JSON.parse(m.muplay_export_torch());
  if (!project.ok) throw new Error(`${tr('the PyTorch script cannot express this spec:')}\n${project.errors.join('\n')}`);
  const files = project.files.map((f) => ({ path: `${stem}-pytorch/${f.path}`, text: f.text,
    bytes: f.fs ? window.Module.FS.readFile(f.fs) : undefined }));
  return new Blob([storedZip(files)], { type: 'application/zip' });
}

// The shown view's table (web/js/figure_text.js: what the view draws, η* per width included for vs learning rate),
// in the page's language, named after the view ("-lr-view.csv").
function viewCsv(m) {
  const figure = JSON.parse(m.muplay_figure_text());
  if (!figure.rows.length) throw new Error(tr('this view shows no data yet'));
  return [`-${figure.view}-view.csv`, new Blob([figureCsv(figure)], { type: 'text/csv' })];
}

// A spec opens; a result document's runs are drawn over the page's (web/app/app.hpp: import_file); a data set opens in
// the Data window (web/js/tables.js). The status bar or a notice says which happened.
async function importFile(m, file, ui) {
  if (isTableFile(file.name)) return importTable(m, file, ui);
  if (file.size > MAX_IMPORT_BYTES) {
    return ui.notice(tr('"{file}" is {bytes} bytes, more than the {limit} a spec or result file can be.',
                        { file: file.name, bytes: file.size, limit: MAX_IMPORT_BYTES }));
  }
  const result = JSON.parse(m.muplay_import(await file.text(), file.name));
  if (result.errors.length) {
    const more = result.errors.length > 1 ? `\n${tr('(and {count} more problems)', { count: result.errors.length - 1 })}` : '';
    return ui.notice(`${tr('Could not open "{file}":', { file: file.name })}\n${result.errors[0]}${more}`);
  }
  if (result.refused) return ui.notice(tr('The runs of "{file}" are not drawn: {why}.', { file: file.name, why: result.refused }));
  if (result.overlay) {
    return ui.status(result.opened_spec
      ? tr('Opened {file}: its runs are drawn over the page\'s (the toolbar\'s Imported lists them).', { file: file.name })
      : tr('Imported {file}: its runs are drawn over the page\'s (the toolbar\'s Imported lists them).', { file: file.name }));
  }
  return ui.status(tr('Opened {file}.', { file: file.name }));
}

export function startFiles(m, ui) {
  const stem = () => fileStem(JSON.parse(m.muplay_get_spec())?.name);
  const text = (type) => (content) => new Blob([content], { type });
  const exports = {
    'export-spec': () => ['.spec.json', text('application/json')(m.muplay_spec_file())],
    'export-csv': () => ['.metrics.csv', text('text/csv')(m.muplay_results_csv())],
    'export-results': () => ['.result.json', text('application/json')(m.muplay_result_file())],
    'export-png': async () => ['.plot.png', await plotPng(m)],
    'export-torch': () => ['-pytorch.zip', torchZip(m, stem())],
    'export-view-csv': () => viewCsv(m),
  };
  for (const [id, make] of Object.entries(exports)) {
    $(id).addEventListener('click', async () => {
      // The menu folds away with the item that had the keyboard: the keyboard returns to Export, never to <body>.
      $('export-menu').open = false;
      $('export-menu').querySelector('summary').focus();
      const needsRun = id === 'export-csv' || id === 'export-results';
      if (needsRun && m.muplay_total_steps() === 0) return ui.status(tr('No metrics yet: run the experiment first.'));
      try {
        const [suffix, blob] = await make();
        download(stem() + suffix, blob);
      } catch (e) {
        ui.notice(tr('Export failed: {why}', { why: e.message }));
      }
      return undefined;
    });
  }

  const picker = $('import-file');
  $('import').addEventListener('click', () => picker.click());
  picker.addEventListener('change', () => {
    if (picker.files[0]) importFile(m, picker.files[0], ui);
    picker.value = '';  // choosing the same file again still fires 'change'
  });

  // Drag and drop anywhere on the page.
  const hint = $('drop-hint');
  const carriesFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  window.addEventListener('dragover', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    hint.hidden = false;
  });
  window.addEventListener('dragleave', (e) => { if (!e.relatedTarget) hint.hidden = true; });
  window.addEventListener('drop', (e) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    hint.hidden = true;
    if (e.dataTransfer.files[0]) importFile(m, e.dataTransfer.files[0], ui);
  });
}
