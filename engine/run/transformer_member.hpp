// A sweep member whose model is an anchor-function Transformer: an AnchorTrainer (the model, AdamW with the
// learning-rate schedule and clipping, shuffled mini-batches) stepped and recorded like any member, and the same
// step as a kernel plan on a GpuDevice in float32 (engine/run/transformer_member_gpu.cpp).
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "engine/model/anchor_trainer.hpp"
#include "engine/run/member.hpp"

class TransformerMember : public Member {
 public:
  TransformerMember(const ExperimentSpec& spec, const TaskData& data, MemberCoords coords);
  // Starts training on `device` where the spec's backend picks it.
  void start_on(GpuDevice* device, const std::string& why_none);

  void step() override;
  int width() const override;  // d_model
  std::string label() const override;
  const std::vector<double>& parameters() const override { return trainer_.model().params(); }
  const AnchorTrainer* transformer() const override { return &trainer_; }
  AnchorTrainer* transformer() override { return &trainer_; }

 private:
  void record_step(int t);
  void finish() override;  // diverged if the final train loss is
  HostState host_state() override;
  void load_parameters(const double* params) override {
    std::vector<double>& p = trainer_.model().params();
    std::copy_n(params, p.size(), p.begin());
  }
  BatchOrder& batch_order() override { return trainer_.batch_order(); }
  void record_read(int t, double) override { record_step(t); }
  void finish_update(int t) override;

  AnchorTrainer trainer_;
  Record record_{trainer_, data_};
};
