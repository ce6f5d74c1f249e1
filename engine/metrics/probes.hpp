// The probes of the metrics that need more than one number of the record (engine/metrics/record.hpp): their
// buffers are sized here, at set-up, so that measuring allocates nothing. One line per probe; the metric table
// (engine/spec/metric_table.cpp) builds them.
#pragma once
#include <memory>

#include "engine/metrics/probe.hpp"

// The activation metrics' probe batch: the first train rows, at most this many.
constexpr int kProbeRows = 128;
// act_rms / act_delta_rms: the RMS of every layer's preactivation h_l on the probe batch, or of its change since
// the first record: "act_rms/h1", …, "act_rms/f".
std::unique_ptr<Probe> activation_probe(Record& r, bool change);
// transformer_coords: RMS of the attention logits and of the last residual stream, and of their and the output's
// change since the first record, on the probe batch (engine/metrics/transformer_coord_probe.cpp).
std::unique_ptr<Probe> transformer_coord_probe(Record& r);
// weight_delta_spectral: ‖W_l − W_l⁰‖_* / ‖W_l⁰‖_* per weight matrix (spectral norms), "weight_delta_spectral/W1", ….
std::unique_ptr<Probe> weight_change_probe(Record& r);
// weight_rd: RD = ‖W₁ − W₁⁰‖_F / ‖W₁⁰‖_F of the first weight matrix (the folded-in bias included).
double first_layer_relative_distance(Record& r);
// fp_delta: Δ_F(k) = |ĥ_k − ŷ_k| / |ŷ_k| at each peak k of the target's spectrum, "delta_F/k=1", ….
std::unique_ptr<Probe> frequency_probe(Record& r);
// fp_filter: the low- and high-frequency errors of a Gaussian filter of width δ, "filter/e_low", "filter/e_high".
std::unique_ptr<Probe> filter_probe(Record& r, double width);
// sign_accuracy: the share of points where sign f = sign y, "sign_accuracy/train" and "sign_accuracy/test".
std::unique_ptr<Probe> sign_accuracy_probe(Record& r);
// sharpness: λ_max of the loss Hessian on the train set (engine/metrics/hessian.hpp).
std::unique_ptr<Probe> sharpness_probe(Record& r);
// condensation: the amplitude share of the largest direction and the number of lines, "condensation/share",
// "condensation/lines" (engine/metrics/neurons.hpp).
std::unique_ptr<Probe> condensation_probe(Record& r);
// neuron_paths: every neuron's angle atan2(b_k, w_k) and amplitude A_k = |a_k| ‖(w_k, b_k)‖ at each record, series
// "neuron_paths/K/angle", "neuron_paths/K/amplitude" (engine/metrics/neurons.hpp): the polar view's trajectories.
std::unique_ptr<Probe> neuron_paths_probe(Record& r);
