// Each view tab with a preset that fills it, shortened to train in seconds, and what the tab must then draw (read
// from the frame trace, web/draw/drawn.hpp). Shared by tests/browser/tab_screenshots.test.mjs (English) and
// tests/browser/chinese.test.mjs (中文): plots are found by their ids, which both languages keep.
import { englishLabel } from './ui_driver.mjs';

const hasData = (p) => p.x.ticks.length >= 2 && p.y.ticks.length >= 2;

// tab: its label; preset: the one that fills it, shortened by edit; shows(d): what must be drawn there.
export const TABS = [
  { tab: 'vs step', preset: /01-sp-vs-mup-toy/, edit: (s) => { s.schedule.steps = 30; },
    shows: (d) => d.plots.some((p) => p.id === '##plot' && hasData(p) && p.legend.length >= 5) },
  { tab: 'vs width', preset: /10-coord-check-mup/, edit: (s) => { s.schedule.steps = 3; },
    shows: (d) => d.plots.some((p) => p.id === '##width' && hasData(p)) },
  { tab: 'vs learning rate', preset: /14-lr-transfer-toy-mup/, edit: (s) => { s.schedule.steps = 20; },
    shows: (d) => d.plots.some((p) => p.id === '##lr' && hasData(p)) },
  { tab: 'vs depth', preset: /14-lr-transfer-toy-mup/, edit: (s) => {  // made a residual MLP swept over depth and lr
    s.model = { kind: 'residual_mlp', widths: [32], depth: 2 };
    s.parametrization = { preset: 'mup', depth_rule: 'depth_mup' };
    s.optimizer = { kind: 'sgd' };
    s.schedule = { steps: 40, record_every: 20, batch_size: 16 };
    s.sweep = { depth: [2, 4, 8, 16], lr: [0.125, 0.25, 0.5, 1, 2, 4], seeds: [0] };
    s.metrics = ['train_loss', 'batch_loss_mean', 'act_delta_rms'];
  }, shows: (d) => d.plots.some((p) => p.id === '##depth' && hasData(p)) },
  { tab: 'embeddings', preset: /16-word-embedding-mup/, edit: () => {},
    shows: (d) => d.items.some((i) => i.visible && i.window.includes('right')) },
  { tab: 'phenomena', preset: /20-frequency-principle\.json/, edit: (s) => { s.schedule.steps = 100; },
    shows: (d) => d.plots.filter((p) => hasData(p)).length >= 3 },
  { tab: 'anchor', preset: /30-anchor-identity/, edit: (s) => { s.schedule.steps = 10; s.schedule.record_every = 5; },
    shows: (d) => d.items.some((i) => englishLabel(i) === 'run' && i.visible) },
  { tab: 'parametrization', preset: /10-coord-check-mup/, edit: (s) => { s.schedule.steps = 1; },
    shows: (d) => d.items.filter((i) => i.visible && i.window.includes('right')).length >= 5 },
  { tab: 'max LR', preset: /17-max-lr-mup/, edit: (s) => { s.sweep.width = [32, 64]; s.sweep.lr = s.sweep.lr.slice(0, 12); },
    shows: (d) => d.plots.filter((p) => hasData(p)).length >= 1 },
];

