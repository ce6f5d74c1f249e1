// The audio trace: with the figure element focused (web/js/figure_text.js), A plays the focused curve as pitch over x
// (Web Audio: low y low, high y high, about 1.5 s), Left/Right move between its points and Up/Down between curves,
// and each move speaks the point through the live region ("n=64: eta = 2^-1.00, mean train loss 0.0071"), so a
// reader who cannot see the plot finds η* by ear and by its numbers. The curves are the figure's series (the points
// its table holds). Keys pressed there are the figure's alone (index.html gives them to muplayFigureKey before the
// app's listeners; web/js/guest_keys.js leaves them to an embed's figure, marked data-own-keys).
import { tr } from './language.js';

const SECONDS = 1.5;
const LOW_HZ = 220;  // two octaves: A3 to A5
const HIGH_HZ = 880;

// Each point's pitch: y scaled into [LOW_HZ, HIGH_HZ] geometrically, on a log scale when every y is positive (a loss
// spans decades), else linearly; null for a point without a finite value (silence).
export function pitches(ys) {
  const finite = ys.filter((y) => Number.isFinite(y));
  if (!finite.length) return ys.map(() => null);
  const log = finite.every((y) => y > 0);
  const at = (y) => (log ? Math.log(y) : y);
  const lo = Math.min(...finite.map(at));
  const hi = Math.max(...finite.map(at));
  return ys.map((y) => {
    if (!Number.isFinite(y)) return null;
    const u = hi > lo ? (at(y) - lo) / (hi - lo) : 0.5;
    return LOW_HZ * (HIGH_HZ / LOW_HZ) ** u;
  });
}

// Plays `ys` as one tone whose pitch steps through the points, silent where a point has no value.
function play(context, ys) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = 'triangle';  // softer than a square wave, easier to follow than a sine
  oscillator.connect(gain).connect(context.destination);
  const start = context.currentTime + 0.05;
  const step = SECONDS / Math.max(1, ys.length);
  pitches(ys).forEach((hz, i) => {
    const t = start + i * step;
    gain.gain.setValueAtTime(hz === null ? 0 : 0.2, t);
    if (hz !== null) oscillator.frequency.setValueAtTime(hz, t);
  });
  gain.gain.setValueAtTime(0, start + SECONDS);
  oscillator.start(start);
  oscillator.stop(start + SECONDS + 0.05);
}

// Wires the keys on the figure element. `figure`: startFigureText's {current, say, element}.
export function startAudioTrace(figure) {
  let context = null;
  let curve = 0;
  let point = 0;
  const series = () => (figure.current()?.series ?? []).filter((s) => s.x.length);
  const speakPoint = () => {
    const s = series()[curve];
    if (s) figure.say(s.said[point]);
  };
  const onKey = (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const all = series();
    if (!all.length) return;
    curve = Math.min(curve, all.length - 1);
    point = Math.min(point, all[curve].x.length - 1);
    switch (e.key) {
      case 'a': case 'A':
        context ??= new AudioContext();
        play(context, all[curve].y);
        figure.say(tr('Playing {name}: {count} points, low to high pitch for low to high values.',
                      { name: all[curve].name, count: all[curve].y.length }));
        break;
      case 'ArrowLeft': point = Math.max(0, point - 1); speakPoint(); break;
      case 'ArrowRight': point = Math.min(all[curve].x.length - 1, point + 1); speakPoint(); break;
      case 'ArrowUp': curve = Math.max(0, curve - 1); point = Math.min(point, all[curve].x.length - 1); speakPoint(); break;
      case 'ArrowDown': curve = Math.min(all.length - 1, curve + 1); point = Math.min(point, all[curve].x.length - 1); speakPoint(); break;
      case 'Home': point = 0; speakPoint(); break;
      case 'End': point = all[curve].x.length - 1; speakPoint(); break;
      default: return;
    }
    e.preventDefault();
  };
  // Called by index.html for every key event before the app sees it: true keeps it from the app. The window's
  // listeners run before the element's, and the app's would take A and the arrows, so the keys are handled here.
  window.muplayFigureKey = (e) => {
    if (e.target !== figure.element || e.key === 'Tab') return false;
    if (e.type === 'keydown') onKey(e);
    return true;
  };
}
