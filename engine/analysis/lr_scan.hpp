// The largest stable learning rate of one sweep member, for experiment E1 ("max LR vs width"):
// under SP it shrinks like a power of the width, under μP it does not.
//
// η_max is the largest η of a log₂ grid, scanned upward, whose run passes. A run passes when its loss stays
// finite, L_T < L_0 after the spec's schedule.steps = T steps, and its output is not identically zero.
// The last test matters: a net whose ReLUs all died outputs 0, whose loss mean(y²)/2 can be below L_0, so it
// would otherwise count as "trained".
//
// The criterion is not monotone in η, so neither bisection nor "stop at the first failure" is valid: just
// above the edge of stability (η ≈ 2/sharpness) GD oscillates and L_T ≥ L_0, while a larger η can pass
// after a loss spike that flattens the landscape (likely a catapult). On the sin toy under SP a failing
// grid value followed by passes is common and moves that member's η_max by up to 3 octaves. The scan
// therefore goes on until `patience` grid values in a row failed (default: two octaves of the ¼-octave
// grid). In 176 scans on that toy (SP and μP, 16 or 64 train points, widths 32…1024) a pass came after
// one failure at most, never after two in a row; the patience saves the runs far above the blow-up.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/analysis/analysis.hpp"
#include "engine/spec/spec.hpp"

struct LrTrial {
  double lr = 0;
  double initial_loss = 0, final_loss = 0;  // L_0 and L_T on the train set (final: NaN when not finite)
  int steps = 0;  // steps run: fewer than T when the loss stopped being finite
  bool passed = false;
  const char* why = "";  // "passed", "diverged", "loss did not fall", "output is zero"
};

struct LrScan {
  double max_lr = 0;            // 0 when no grid value passed
  std::vector<LrTrial> trials;  // in scan order
};

constexpr int kLrScanPatience = 8;

// The upward scan's bookkeeping, fed one trial at a time in ascending η: η_max so far, and whether to go on.
struct UpwardScan {
  int patience = kLrScanPatience;
  int failures_in_a_row = 0;
  double max_lr = 0;
  bool add(const LrTrial& t);  // false once `patience` trials in a row failed: stop
};

// The verdict on a member run at learning rate `lr` for schedule.steps steps, recording train_loss and act_rms
// at least at steps 0 and T (L_0, L_T and the output's RMS).
LrTrial judge_run(const Member& run, double lr);

// lo · 2^(k / per_octave) for k = 0, 1, ... while ≤ hi (per_octave = 4: the ¼-octave grid of E1).
std::vector<double> log2_grid(double lo, double hi, int per_octave);

// One run of `spec` per grid value (ascending) for the member (width, seed), until `patience` failures in a
// row. Only the spec's sweep, metrics and divergence threshold are replaced: the criterion is "finite loss",
// so a loss spike that recovers within the T steps still passes.
LrScan max_stable_lr(const ExperimentSpec& spec, int width, uint64_t seed, const std::vector<double>& grid,
                     int patience = kLrScanPatience);

// E1 read off a finished plain sweep (width × lr grid × seeds, T steps, metrics train_loss and act_rms), as the
// presets 17-max-lr-* run it: the same verdicts, scanned upward over the sweep's lr axis with the same patience.
struct MaxLrCurve {
  int width = 0;
  std::vector<double> lrs;         // ascending, up to the width's η_max
  std::vector<double> loss_ratio;  // per lr: mean over seeds of L_T / L_0 (seeds whose run stayed finite)
  double max_lr = 0;               // 2^(mean over seeds of log₂ η_max); 0 when a seed has none
};
struct MaxLrTable {
  std::vector<MaxLrCurve> curves;  // by ascending width
  std::vector<double> slopes;      // per seed: log-log slope of η_max against width
  MeanSem slope;                   // over seeds
};
MaxLrTable max_lr_table(const Runner& runner);
