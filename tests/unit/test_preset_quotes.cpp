// Every number a preset's description quotes is what the preset shows when it runs as shipped. Each preset below runs
// once, natively, to its end (the page gives the same numbers to the bit: tests/node/determinism.test.mjs), and each
// quote names the words of the description it checks, how the page arrives at the number (the same engine functions
// its views call), and the precision the text gives it. A description edited without a new run, or a change of
// the engine that moves a number a description quotes, fails here with both numbers.
// The same run shows that the preset trains (tests/unit/preset_trains.hpp); a preset that quotes no number trains a
// shortened copy for that check alone. The tests that check the same effects at full size are listed per preset in
// examples/presets.md.
#include "engine/spec/presets.hpp"
#include "tests/unit/preset_quotes.hpp"
#include "tests/unit/preset_trains.hpp"

namespace {

SpecLimits with_data() {
  SpecLimits limits;
  limits.fashion_mnist_dir = MUPLAY_FASHION_MNIST_DIR;
  return limits;
}

// Quotes of the MLP presets (the width experiments and the book's phenomena).
const std::vector<PresetQuotes>& mlp_quotes() {
  static const std::vector<PresetQuotes> table = {
      {"10-coord-check-mup.json",
       {{"flat in width at every step", width_slope("act_delta_rms/h2", 1), 0, 0.1},
        {"flat in width at every step", width_slope("act_delta_rms/f", 10), 0, 0.1},
        {"the output at init shrinks like n^-1/2", width_slope("act_rms/f", 0), -0.5, 0.1}}},
      {"11-coord-check-sp.json",
       {{"the change of h2 already grows like n^1/2", width_slope("act_delta_rms/h2", 1), 0.5, 0.1},
        {"and that of f like n", width_slope("act_delta_rms/f", 1), 1, 0.1},
        {"by step 5 the change of h2 grows like n^2", width_slope("act_delta_rms/h2", 5), 2, 0.2}}},
      {"01-sp-vs-mup-toy.json", {{"the widest slightly lowest", widest_lowest("train_loss"), 1, 0}}},
      {"02-sp-toy.json",
       {{"width 256 only halves its loss (0.20", value_at(width_is(256), "train_loss", 0), 0.20, 0.005},
        {"0.20 to 0.098)", value_at(width_is(256), "train_loss"), 0.098, 0.0005},
        {"width 512 diverges at step 3", diverged_at(width_is(512)), 3, 0}}},
      {"12-kernel-regime-ntp.json",
       {{"W2 (weight_delta_spectral) shrinks like n^-0.57", width_slope("weight_delta_spectral/W2", 20), -0.57, 0.005},
        {"of W1 and W3 like n^-0.33", width_slope("weight_delta_spectral/W1", 20), -0.33, 0.005},
        {"and n^-0.46", width_slope("weight_delta_spectral/W3", 20), -0.46, 0.005},
        {"h1, h2 (act_delta_rms) like n^-0.43", width_slope("act_delta_rms/h1", 20), -0.43, 0.005},
        {"and n^-0.40", width_slope("act_delta_rms/h2", 20), -0.40, 0.005},
        {"stays of order one (n^+0.12)", width_slope("act_delta_rms/f", 20), 0.12, 0.005}}},
      {"14-lr-transfer-toy-mup.json",
       {{"2^-0.50, 2^-0.87, 2^-1.17, 2^-1.22 at n = 32, 64, 128, 256", log2_eta_star(32), -0.5, 0.005},
        {"2^-0.50, 2^-0.87, 2^-1.17, 2^-1.22 at n = 32, 64, 128, 256", log2_eta_star(64), -0.87, 0.005},
        {"2^-0.50, 2^-0.87, 2^-1.17, 2^-1.22 at n = 32, 64, 128, 256", log2_eta_star(128), -1.17, 0.005},
        {"2^-0.50, 2^-0.87, 2^-1.17, 2^-1.22 at n = 32, 64, 128, 256", log2_eta_star(256), -1.22, 0.005}}},
      {"14-lr-transfer-toy-sp.json",
       {{"2^-4.38, 2^-5.46, 2^-7.08, 2^-8.48 at n = 32, 64, 128, 256", log2_eta_star(32), -4.38, 0.005},
        {"2^-4.38, 2^-5.46, 2^-7.08, 2^-8.48 at n = 32, 64, 128, 256", log2_eta_star(64), -5.46, 0.005},
        {"2^-4.38, 2^-5.46, 2^-7.08, 2^-8.48 at n = 32, 64, 128, 256", log2_eta_star(128), -7.08, 0.005},
        {"2^-4.38, 2^-5.46, 2^-7.08, 2^-8.48 at n = 32, 64, 128, 256", log2_eta_star(256), -8.48, 0.005}}},
      {"15-fashion-mnist-transfer-mup.json",
       {{"2^-4.6, 2^-4.8, 2^-4.4 at n = 32, 64, 128", log2_eta_star(32), -4.6, 0.05},
        {"2^-4.6, 2^-4.8, 2^-4.4 at n = 32, 64, 128", log2_eta_star(64), -4.8, 0.05},
        {"2^-4.6, 2^-4.8, 2^-4.4 at n = 32, 64, 128", log2_eta_star(128), -4.4, 0.05}}},
      {"15-fashion-mnist-transfer-sp.json",
       {{"2^-6.7, 2^-7.2, 2^-8.2 at n = 32, 64, 128", log2_eta_star(32), -6.7, 0.05},
        {"2^-6.7, 2^-7.2, 2^-8.2 at n = 32, 64, 128", log2_eta_star(64), -7.2, 0.05},
        {"2^-6.7, 2^-7.2, 2^-8.2 at n = 32, 64, 128", log2_eta_star(128), -8.2, 0.05}}},
      {"18-fashion-mnist-transfer-sgd-mup.json",
       {{"2^-2.75, 2^-3.17, 2^-3.05 at n = 32, 64, 128", log2_eta_star(32), -2.75, 0.005},
        {"2^-2.75, 2^-3.17, 2^-3.05 at n = 32, 64, 128", log2_eta_star(64), -3.17, 0.005},
        {"2^-2.75, 2^-3.17, 2^-3.05 at n = 32, 64, 128", log2_eta_star(128), -3.05, 0.005}}},
      {"18-fashion-mnist-transfer-sgd-sp.json",
       {{"2^-2.75, 2^-2.80, 2^-2.72 at n = 32, 64, 128", log2_eta_star(32), -2.75, 0.005},
        {"2^-2.75, 2^-2.80, 2^-2.72 at n = 32, 64, 128", log2_eta_star(64), -2.80, 0.005},
        {"2^-2.75, 2^-2.80, 2^-2.72 at n = 32, 64, 128", log2_eta_star(128), -2.72, 0.005}}},
      {"16-word-embedding-mup.json",
       {{"1.50 at n = 256", separation(256), 1.50, 0.005},
        {"2.37 at n = 1024", separation(1024), 2.37, 0.005},
        {"2.39 at infinity", separation_at_infinity(), 2.39, 0.005},
        {"(0.13 and 0.03)", separation(16), 0.13, 0.005},
        {"(0.13 and 0.03)", separation(64), 0.03, 0.005}}},
      {"16-word-embedding-ntp.json",
       {{"separation 0.14, 0.01, 0.21, 0.04 at n = 16, 64, 256, 1024", separation(16), 0.14, 0.005},
        {"separation 0.14, 0.01, 0.21, 0.04 at n = 16, 64, 256, 1024", separation(64), 0.01, 0.005},
        {"separation 0.14, 0.01, 0.21, 0.04 at n = 16, 64, 256, 1024", separation(256), 0.21, 0.005},
        {"separation 0.14, 0.01, 0.21, 0.04 at n = 16, 64, 256, 1024", separation(1024), 0.04, 0.005}}},
      {"17-max-lr-mup.json", {{"slope +0.03 with this seed", max_lr_slope(), 0.03, 0.005}}},
      {"17-max-lr-sp.json", {{"slope -0.80 over 32-512 with this seed", max_lr_slope(), -0.80, 0.005}}},
      {"20-frequency-principle.json",
       {{"k=1 drops below 0.1 at step 20", first_step_below(any_member(), "delta_F/k=1", 0.1), 20, 0},
        {"k=3 at 180", first_step_below(any_member(), "delta_F/k=3", 0.1), 180, 0},
        {"k=5 only at 840", first_step_below(any_member(), "delta_F/k=5", 0.1), 840, 0}}},
      {"21-frequency-principle-large-init.json",
       {{"at step 365", first_step_below(any_member(), "delta_F/k=5", 0.1), 365, 0},
        {"before k=1 (400)", first_step_below(any_member(), "delta_F/k=1", 0.1), 400, 0},
        {"and k=3 (485)", first_step_below(any_member(), "delta_F/k=3", 0.1), 485, 0}}},
      {"28-frequency-principle-asi.json",
       {{"20, 135, 575", first_step_below(any_member(), "delta_F/k=1", 0.1), 20, 0},
        {"20, 135, 575", first_step_below(any_member(), "delta_F/k=3", 0.1), 135, 0},
        {"20, 135, 575", first_step_below(any_member(), "delta_F/k=5", 0.1), 575, 0}}},
      {"28-frequency-principle-gradient-loss.json",
       {{"at step 295 instead of 840", first_step_below(any_member(), "delta_F/k=5", 0.1), 295, 0}}},
      {"28-frequency-principle-image.json",
       {{"seed 0: step 740", first_step_below(any_member(), "filter/e_low", 0.1), 740, 0},
        {"e_high still 0.55 there", value_at(any_member(), "filter/e_high", 740), 0.55, 0.005}}},
      {"22-parity.json",
       {{"reaches 100% at step 168", first_step_at_least(any_member(), "sign_accuracy/train", 1), 168, 0},
        {"(0.44-0.51 up to step 200)", extreme(any_member(), "sign_accuracy/test", false, 0, 200), 0.44, 0.005},
        {"(0.44-0.51 up to step 200)", extreme(any_member(), "sign_accuracy/test", true, 0, 200), 0.51, 0.005},
        {"0.64 by step 400", value_at(any_member(), "sign_accuracy/test", 400), 0.64, 0.005}}},
      {"24-condensation.json",
       {{"the condensation share is 0.995 at step 25", value_at(any_member(), "condensation/share", 25), 0.995, 0.0005},
        {"on 1 line", value_at(any_member(), "condensation/lines", 25), 1, 0},
        {"from 0.185 to 0.013 by step 150", value_at(any_member(), "train_loss", 0), 0.185, 0.0005},
        {"from 0.185 to 0.013 by step 150", value_at(any_member(), "train_loss", 150), 0.013, 0.0005},
        {"and then stays flat", value_at(any_member(), "train_loss"), 0.013, 0.0005}}},
      {"25-initial-condensation.json",
       {{"it is 1.0 at step 50", value_at(any_member(), "condensation/share", 50), 1.0, 0.05}}},
      {"26-embedding-plateaus.json",
       {{"(train loss ~0.395)", value_at(width_is(10), "train_loss", 1000), 0.395, 0.005},
        {"(train loss ~0.395)", value_at(width_is(100), "train_loss", 1000), 0.395, 0.005}}},
      {"27-edge-of-stability.json",
       {{"starts at 8.5", value_at(lr_is(0.2), "sharpness", 0), 8.5, 0.05},
        {"(15.8 at step 120)", extreme(lr_is(0.2), "sharpness", true), 15.8, 0.05},
        {"(15.8 at step 120)", step_of_max(lr_is(0.2), "sharpness"), 120, 0},
        {"hovers at 10 (10.03 at the end)", value_at(lr_is(0.2), "sharpness"), 10.03, 0.005},
        {"climbs to 23.8 (step 420)", extreme(lr_is(0.1), "sharpness", true), 23.8, 0.05},
        {"climbs to 23.8 (step 420)", step_of_max(lr_is(0.1), "sharpness"), 420, 0},
        {"settles below (14.5 at the end)", value_at(lr_is(0.1), "sharpness"), 14.5, 0.05}}},
      {"29-condensation-dropout-with.json",
       {{"reaches 0.67 at step 2000 vs 0.38 without", value_at(any_member(), "condensation/share", 2000), 0.67,
         0.005}}},
      {"29-condensation-dropout-without.json",
       {{"reaches 0.67 at step 2000 vs 0.38 without", value_at(any_member(), "condensation/share", 2000), 0.38,
         0.005}}},
      // Residual MLPs: the depth coordinate check and depth transfer (the *vs depth* view).
      {"41-depth-coord-check-standard.json",
       {{"grows like L^2.7 at step 1", depth_slope("act_delta_rms", 1), 2.7, 0.05},
        {"and L^2.5 at step 5", depth_slope("act_delta_rms", 5), 2.5, 0.05}}},
      {"41-depth-coord-check-depth-mup.json",
       {{"slope +0.03 at step 1", depth_slope("act_delta_rms", 1), 0.03, 0.005},
        {"and at step 5", depth_slope("act_delta_rms", 5), 0.03, 0.005}}},
      {"42-depth-transfer-sgd-standard.json",
       {{"falls from 2^0.00 at L = 2", log2_eta_star_at(128, 2), 0.0, 0.005},
        {"to 2^-7.45 at L = 16", log2_eta_star_at(128, 16), -7.45, 0.005},
        {"a slope of -2.5", depth_eta_slope(128), -2.5, 0.05}}},
      {"42-depth-transfer-sgd-depth-mup.json",
       {{"eta* is 2^0.21,", log2_eta_star_at(128, 2), 0.21, 0.005},
        {"2^0.51,", log2_eta_star_at(128, 4), 0.51, 0.005},
        {"2^0.45,", log2_eta_star_at(128, 8), 0.45, 0.005},
        {"2^0.47 at L = 2, 4, 8, 16", log2_eta_star_at(128, 16), 0.47, 0.005},
        {"a slope of +0.07", depth_eta_slope(128), 0.07, 0.005}}},
      {"43-depth-transfer-adam-standard.json",
       {{"falls from 2^-2.84 at L = 2", log2_eta_star_at(128, 2), -2.84, 0.005},
        {"to 2^-6.29 at L = 16", log2_eta_star_at(128, 16), -6.29, 0.005},
        {"a slope of -1.08", depth_eta_slope(128), -1.08, 0.005}}},
      {"43-depth-transfer-adam-depth-mup.json",
       {{"eta* is 2^-2.62,", log2_eta_star_at(128, 2), -2.62, 0.005},
        {"2^-2.34,", log2_eta_star_at(128, 4), -2.34, 0.005},
        {"2^-2.39,", log2_eta_star_at(128, 8), -2.39, 0.005},
        {"2^-2.59 at L = 2, 4, 8, 16", log2_eta_star_at(128, 16), -2.59, 0.005},
        {"a slope of +0.00", depth_eta_slope(128), 0.0, 0.005}}},
      // The Transformer's width transfer (the *vs learning rate* view's η*).
      {"45-transformer-width-transfer-mup.json",
       {{"line up at 2^-4.09,", log2_eta_star(32), -4.09, 0.005},
        {"2^-4.07,", log2_eta_star(64), -4.07, 0.005},
        {"2^-4.11, a slope", log2_eta_star(128), -4.11, 0.005},
        {"a slope of -0.01", eta_star_width_slope(), -0.01, 0.005}}},
      {"45-transformer-width-transfer-sp.json",
       {{"falls from 2^-7.06 at d_model 32", log2_eta_star(32), -7.06, 0.005},
        {"to 2^-7.69 at 64", log2_eta_star(64), -7.69, 0.005},
        {"and 2^-8.72 at 128", log2_eta_star(128), -8.72, 0.005},
        {"a slope of -0.83", eta_star_width_slope(), -0.83, 0.005}}},
      // The Transformer's coordinate check (the *vs width* view of transformer_coords, step 5).
      {"46-transformer-coord-check-mup.json",
       {{"(slopes +0.02", width_slope("transformer_coords/stream_delta", 5), 0.02, 0.005},
        {"and -0.03 at step 5)", width_slope("transformer_coords/output_delta", 5), -0.03, 0.005},
        {"falls (-0.57)", width_slope("transformer_coords/attn_logits_delta", 5), -0.57, 0.005}}},
      {"46-transformer-coord-check-sp.json",
       {{"grows like d_model^1.48", width_slope("transformer_coords/attn_logits_delta", 5), 1.48, 0.005},
        {"like d_model^1.38", width_slope("transformer_coords/stream_delta", 5), 1.38, 0.005},
        {"like d_model^0.38", width_slope("transformer_coords/output_delta", 5), 0.38, 0.005}}},
      {"44-width-and-depth-mup.json",
       {{"between 2^-2.62", log2_eta_star_at(128, 2), -2.62, 0.005},
        {"and 2^-2.24 for all six nets", log2_eta_star_at(64, 2), -2.24, 0.005},
        {"2^-2.53 for the largest", log2_eta_star_at(256, 8), -2.53, 0.005},
        {"between 2^-2.62 and 2^-2.24", log2_eta_star_at(64, 8), -2.43, 0.19},
        {"between 2^-2.62 and 2^-2.24", log2_eta_star_at(128, 8), -2.43, 0.19},
        {"between 2^-2.62 and 2^-2.24", log2_eta_star_at(256, 2), -2.43, 0.19}}},
  };
  return table;
}

// The anchor-function Transformers (chapters 12 and 13), seed 0. Their runs also carry the acceptance checks of the
// book's results at the presets' sizes (bounds), so each preset trains once: the book reaches 100% on reading,
// classification and tasks 5-7 at its sizes; at these, at least 95% (synonyms: 90% on the held-out pairs).
// Preset 30's quotes are checked on the three-seed run of its mechanism test (test_anchor_acceptance.cpp).
const Pick kAny = any_member();
Measure id_at(int step) { return value_at(kAny, "id_accuracy", step); }
Measure at_gamma(double gamma, const char* name) { return value_at(gamma_is(gamma), name); }

const std::vector<PresetQuotes>& anchor_quotes() {
  static const std::vector<PresetQuotes> table = {
      {"33-anchor-classification.json",
       {{"seed 0 sits at 0.41 at step 2 000", id_at(2000), 0.41, 0.005},
        {"jumps to 0.85 by step 2 500", id_at(2500), 0.85, 0.005},
        {"ends at test 0.974 (train 0.995)", id_at(-1), 0.974, 0.0005},
        {"ends at test 0.974 (train 0.995)", value_at(kAny, "train_accuracy"), 0.995, 0.0005}},
       {{"test accuracy", id_at(-1), 0.95, 1}, {"train accuracy", value_at(kAny, "train_accuracy"), 0.95, 1}}},
      {"31-anchor-gamma-sweep.json",
       {{"gamma 0.2 learns nothing (ID 0.03, OOD 0.01)", at_gamma(0.2, "id_accuracy"), 0.03, 0.005},
        {"gamma 0.2 learns nothing (ID 0.03, OOD 0.01)", at_gamma(0.2, "ood_accuracy"), 0.01, 0.005},
        {"(ID 0.93, OOD 0.11: phase 2)", at_gamma(0.5, "id_accuracy"), 0.93, 0.005},
        {"(ID 0.93, OOD 0.11: phase 2)", at_gamma(0.5, "ood_accuracy"), 0.11, 0.005},
        {"fits (ID 0.98) and reasons (OOD 0.55: phase 3)", at_gamma(0.8, "id_accuracy"), 0.98, 0.005},
        {"fits (ID 0.98) and reasons (OOD 0.55: phase 3)", at_gamma(0.8, "ood_accuracy"), 0.55, 0.005},
        {"(mean |cos| 0.14 -> 0.36; anchor tab)", at_gamma(0.2, "wq_cosine"), 0.14, 0.005},
        {"(mean |cos| 0.14 -> 0.36; anchor tab)", at_gamma(0.8, "wq_cosine"), 0.36, 0.005}},
       // Chapter 13 at λ = 0.01: γ 0.2 learns nothing; 0.5 fits the trained pairs without reasoning; 0.8 fits and
       // reasons; the rows of layer 1's W_Q condense. Measured (2 pre-LN layers, d_model 32, 1 head, d_ff 128,
       // 10 000 sequences, 5% warm-up + cosine, clip 1; ID / OOD accuracy at the end):
       //   configuration                        seed  γ = 0.2        γ = 0.5        γ = 0.8
       //   lr 2e-3, 1 500 steps, batch 64       0     0.016 / 0.012  0.743 / 0.103  0.977 / 0.495
       //   lr 4e-3,   750 steps, batch 64       0                    0.291 / 0.066  0.441 / 0.317
       //                                        1                    0.317 / 0.124  0.391 / 0.260
       //   lr 2e-3, 1 500 steps, 2 heads        0                    0.771 / 0.201  0.993 / 0.740
       //                                        1                    0.817 / 0.256  0.989 / 0.447
       //   lr 4e-3, 1 500 steps, batch 64       0     0.025 / 0.006  0.942 / 0.066  0.986 / 0.634
       //     (the preset: these bounds)         1     0.014 / 0.014  0.897 / 0.243  0.947 / 0.645
       //   lr 4e-3, 1 500 steps, batch 128      0     0.032 / 0.012  0.997 / 0.124  0.999 / 0.773
       //                                        1                    1.000 / 0.424  1.000 / 0.887
       //                                        2                    0.993 / 0.475  1.000 / 0.727
       // Seed 1 at batch 64 misses "ID at γ 0.5 ≥ 0.9" by 0.003; at batch 128 every bound holds on seeds 0-2 (twice
       // the cost). Halving the steps leaves both γ unfitted.
       // The preset trains in float32 (the page's pace): seed 0 at lr 4e-3, batch 64 ends 0.031 / 0.012,
       // 0.929 / 0.107, 0.980 / 0.547 there, |cos| 0.139 -> 0.364; every bound above still holds.
       {{"OOD(0.8) - OOD(0.5)", difference(at_gamma(0.8, "ood_accuracy"), at_gamma(0.5, "ood_accuracy")), 0.2, 1},
        {"OOD(0.8) - OOD(0.2)", difference(at_gamma(0.8, "ood_accuracy"), at_gamma(0.2, "ood_accuracy")), 0.2, 1},
        {"ID(0.8)", at_gamma(0.8, "id_accuracy"), 0.9, 1},
        {"ID(0.2)", at_gamma(0.2, "id_accuracy"), 0, 0.1},
        {"ID(0.5)", at_gamma(0.5, "id_accuracy"), 0.9, 1},
        {"ID(0.5) - OOD(0.5)", difference(at_gamma(0.5, "id_accuracy"), at_gamma(0.5, "ood_accuracy")), 0.4, 1},
        {"|cos| W_Q rows: 0.8 - 0.2", difference(at_gamma(0.8, "wq_cosine"), at_gamma(0.2, "wq_cosine")), 0.1, 1}}},
      {"32-anchor-reading.json",
       {{"test accuracy jumps to 0.98 by step 300", id_at(300), 0.98, 0.005},
        {"ends at 0.988 (train 1.000)", id_at(-1), 0.988, 0.0005},
        {"ends at 0.988 (train 1.000)", value_at(kAny, "train_accuracy"), 1.0, 0.0005}},
       {{"test accuracy", id_at(-1), 0.95, 1}}},
      {"34-anchor-composite.json",
       {{"step 600: ID 0.62, OOD 0.49", id_at(600), 0.62, 0.0051},
        {"step 600: ID 0.62, OOD 0.49", value_at(kAny, "ood_accuracy", 600), 0.49, 0.005},
        {"step 900: 0.87 vs 0.72", id_at(900), 0.87, 0.005},
        {"step 900: 0.87 vs 0.72", value_at(kAny, "ood_accuracy", 900), 0.72, 0.005},
        {"both end high (ID 0.94, OOD 0.91)", id_at(-1), 0.94, 0.005},
        {"both end high (ID 0.94, OOD 0.91)", value_at(kAny, "ood_accuracy"), 0.91, 0.005}}},
      {"35-anchor-statistical1.json",
       {{"train accuracy climbs to 0.800", value_at(kAny, "train_accuracy"), 0.800, 0.0005},
        {"(ID accuracy 0.90)", id_at(-1), 0.90, 0.005},
        {"plus_one_share = p(x+1) / (p(x) + p(x+1)) = 0.25", value_at(kAny, "plus_one_share"), 0.25, 0.005}}},
      {"36-anchor-statistical2.json",
       {{"stays at 0.80 (0.795)", value_at(kAny, "train_accuracy"), 0.795, 0.0005},
        {"(ID accuracy 0.99)", id_at(-1), 0.99, 0.005},
        {"plus_one_share = p(x+1) / (p(x) + p(x+1)) = 0.18", value_at(kAny, "plus_one_share"), 0.18, 0.005}}},
      {"37-anchor-multi-anchor.json",
       {{"train accuracy 0.97 and test accuracy 0.82", value_at(kAny, "train_accuracy"), 0.97, 0.005},
        {"train accuracy 0.97 and test accuracy 0.82", id_at(-1), 0.82, 0.005}}},
      {"38-anchor-working-memory.json",
       {{"test accuracy 0.21 at step 150", id_at(150), 0.21, 0.005},
        {"0.61 at 300", id_at(300), 0.61, 0.005},
        {"0.99 at 450", id_at(450), 0.99, 0.005},
        {"1.00 from 600 on", extreme(kAny, "id_accuracy", false, 600), 1.0, 0.005}},
       {{"test accuracy", id_at(-1), 0.95, 1}}},
      {"39-anchor-synonyms.json",
       {{"OOD accuracy 0.74 at step 600", value_at(kAny, "ood_accuracy", 600), 0.74, 0.005},
        {"0.99 at the end", value_at(kAny, "ood_accuracy"), 0.99, 0.005},
        {"ID accuracy 0.98", id_at(-1), 0.98, 0.005}},
       {{"test accuracy (ID)", id_at(-1), 0.9, 1}, {"held-out pairs (OOD)", value_at(kAny, "ood_accuracy"), 0.9, 1}}},
      {"40-anchor-recite-next.json",
       {{"test accuracy 0.02 at step 100", id_at(100), 0.02, 0.005},
        {"0.99 at step 200", id_at(200), 0.99, 0.005},
        {"1.00 from step 300 on", extreme(kAny, "id_accuracy", false, 300), 1.0, 0.005}},
       {{"test accuracy", id_at(-1), 0.95, 1}}},
      {"40-anchor-recite-previous.json",
       {{"test accuracy 0.30 at step 200", id_at(200), 0.30, 0.005},
        {"0.89 at step 300", id_at(300), 0.89, 0.005},
        {"0.97 at the end", id_at(-1), 0.97, 0.005}},
       {{"test accuracy", id_at(-1), 0.95, 1}}},
  };
  return table;
}

class PresetQuotesHold : public ::testing::TestWithParam<PresetQuotes> {};

TEST_P(PresetQuotesHold, AsShipped) {
  const PresetQuotes& p = GetParam();
  std::string text;
  ASSERT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/" + p.file, text)) << p.file;
  const SpecResult spec = parse_spec_text(text, with_data());
  ASSERT_TRUE(spec.ok()) << p.file << ": " << spec.errors[0];
  Runner runner(spec.spec, MUPLAY_FASHION_MNIST_DIR);
  while (runner.step()) {
  }
  expect_quotes(p.file, spec.spec.description, runner, p.quotes);
  expect_bounds(p.file, runner, p.bounds);
  preset_trains::expect_trains(runner, spec.spec, p.file);
}

// "15-fashion-mnist-transfer-sp.json" → "p15_fashion_mnist_transfer_sp": a test name.
std::string test_name(const std::string& file) {
  std::string name = "p" + file.substr(0, file.rfind(".json"));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}
std::string quotes_test_name(const ::testing::TestParamInfo<PresetQuotes>& info) { return test_name(info.param.file); }

// The anchor presets first: ctest starts tests in this order (equal COST), so the longest runs do not end it alone.
INSTANTIATE_TEST_SUITE_P(Anchor, PresetQuotesHold, ::testing::ValuesIn(anchor_quotes()), quotes_test_name);
INSTANTIATE_TEST_SUITE_P(Mlp, PresetQuotesHold, ::testing::ValuesIn(mlp_quotes()), quotes_test_name);

// The presets without quotes above.
std::vector<PresetFile> unquoted_presets() {
  std::vector<PresetFile> out;
  for (const PresetFile& p : list_presets(MUPLAY_EXAMPLES_DIR, with_data())) {
    const std::string file = p.path.substr(p.path.find_last_of('/') + 1);
    auto quoted = [&](const PresetQuotes& q) { return q.file == file; };
    if (std::none_of(mlp_quotes().begin(), mlp_quotes().end(), quoted) &&
        std::none_of(anchor_quotes().begin(), anchor_quotes().end(), quoted))
      out.push_back(p);
  }
  return out;
}

class PresetTrains : public ::testing::TestWithParam<PresetFile> {};

TEST(PresetTrains, EveryPresetIsCheckedOnce) {
  const size_t all = list_presets(MUPLAY_EXAMPLES_DIR, with_data()).size();
  EXPECT_GE(all, 3u);
  EXPECT_EQ(unquoted_presets().size() + mlp_quotes().size() + anchor_quotes().size(), all);
}

// A preset that quotes nothing: a shortened copy of it trains.
TEST_P(PresetTrains, LossFalls) {
  const PresetFile& p = GetParam();
  ASSERT_TRUE(p.errors.empty()) << p.path << ": " << p.errors[0];
  SpecResult r = parse_spec_text(p.text, with_data());
  r.spec.schedule.steps = std::min(r.spec.schedule.steps, preset_trains::steps_to_fall(r.spec));
  Runner runner(r.spec, MUPLAY_FASHION_MNIST_DIR);
  while (runner.step()) {
  }
  preset_trains::expect_trains(runner, r.spec, p.path);
}

INSTANTIATE_TEST_SUITE_P(Examples, PresetTrains, ::testing::ValuesIn(unquoted_presets()),
                         [](const ::testing::TestParamInfo<PresetFile>& info) {
                           return test_name(info.param.path.substr(info.param.path.find_last_of('/') + 1));
                         });

}  // namespace

void PrintTo(const PresetFile& p, std::ostream* os) { *os << p.path; }
