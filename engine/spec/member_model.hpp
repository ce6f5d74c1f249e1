// The MLP a member of a spec trains, as the member builds it and the memory budget counts it: its dims, scalings,
// options and the rows its buffers hold.
#pragma once
#include "engine/model/mlp.hpp"
#include "engine/spec/experiment_spec.hpp"

// The rows an MLP member's buffers hold: a mini-batch, the whole train set for the metrics that look at it at once
// and for gd_auto, and at least the activation metrics' probe batch.
int mlp_rows(const ExperimentSpec& s);
// The Mlp of member `c` of an MLP spec (mlp or residual_mlp).
MlpConfig mlp_config(const ExperimentSpec& s, const MemberCoords& c);
