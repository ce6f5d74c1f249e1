// What a metric's probe measures at a record step of one sweep member (the table of metrics:
// engine/spec/metric_table.hpp): the member's network and data, the numbers the member measured itself, and the
// evaluations several metrics share, each computed at most once per record (test_loss and test_accuracy share one
// pass over the test set; fp_delta and fp_filter one pass over the train set).
//
// At a record step t the network holds θ_t, before update t: the member records after the step's backward pass
// and before its optimizer step, so a probe may run forward passes but must leave the gradient buffer as it was.
#pragma once
#include <vector>

#include "engine/metrics/hessian.hpp"
#include "engine/model/anchor_trainer.hpp"
#include "engine/model/mlp.hpp"
#include "engine/task/task.hpp"

// Transformer members measure the train set on its first sequences only: a full pass over 10 000 sequences at every
// record would cost more than the training between records.
constexpr int kTransformerTrainEval = 1000;

class Record {
 public:
  Record(Mlp& mlp, const TaskData& data) : mlp_(&mlp), data_(data) {}
  Record(AnchorTrainer& trainer, const TaskData& data) : trainer_(&trainer), data_(data) {}

  Mlp* mlp() { return mlp_; }              // null for a Transformer member
  AnchorTrainer* trainer() { return trainer_; }  // null for an MLP member
  const TaskData& data() const { return data_; }

  // Starts record number `index` (0 at the member's first): forgets the last record's evaluations.
  void begin(int index);
  int index() const { return index_; }

  // Set by the member at each record.
  double train_loss = 0;
  double batch_loss_mean = 0;  // the running mean of the mini-batch losses of steps 0…t
  double gd_lr = 0;            // gd_auto: the step size in use
  double slope_loss = 0;       // task.gradient_loss: the derivative term of the loss
  // Set by the member at set-up, where a metric needs them.
  const std::vector<double>* initial_params = nullptr;  // θ at init
  HessianProbe* hessian = nullptr;                      // on the train set (shared with gd_auto: one warm start)

  // MLP: loss and accuracy on the test set. Transformer: loss, accuracy and x+1 share on the in-distribution test.
  const Evaluation& test();
  // Transformer: loss and accuracy on the first kTransformerTrainEval train sequences.
  const Evaluation& train();
  // MLP: the network's output on every train row (a probe that calls it has called reserve_train_outputs).
  const double* train_outputs();
  void reserve_train_outputs() { train_outputs_.resize(size_t(data_.train.size)); }

 private:
  Mlp* mlp_ = nullptr;
  AnchorTrainer* trainer_ = nullptr;
  const TaskData& data_;
  int index_ = -1;
  Evaluation test_, train_;
  bool have_test_ = false, have_train_ = false, have_train_outputs_ = false;
  std::vector<double> train_outputs_;
};
