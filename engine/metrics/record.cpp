#include "engine/metrics/record.hpp"

#include <algorithm>

#include "engine/model/mlp_loss.hpp"

void Record::begin(int index) {
  index_ = index;
  have_test_ = have_train_ = have_train_outputs_ = false;
}

const Evaluation& Record::test() {
  if (have_test_) return test_;
  have_test_ = true;
  if (trainer_) return test_ = trainer_->evaluate(data_.anchor.test, 0);
  int correct = 0;
  test_.loss = dataset_loss(*mlp_, data_.test, data_, &correct);
  test_.accuracy = double(correct) / data_.test.size;
  return test_;
}

const Evaluation& Record::train() {
  if (!have_train_) train_ = trainer_->evaluate(data_.anchor.train, kTransformerTrainEval);
  have_train_ = true;
  return train_;
}

const double* Record::train_outputs() {
  if (have_train_outputs_) return train_outputs_.data();
  have_train_outputs_ = true;
  const Dataset& train = data_.train;
  for (int start = 0; start < train.size; start += mlp_->max_batch()) {
    const int n = std::min(mlp_->max_batch(), train.size - start);
    const double* f = mlp_->forward(&train.x[size_t(start) * size_t(train.input_dim)], n);
    std::copy(f, f + n, train_outputs_.begin() + start);
  }
  return train_outputs_.data();
}
