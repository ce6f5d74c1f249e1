// The fashion_mnist task: the build's subset loads with the documented shape and scaling, and a spec that needs
// data the front end cannot provide is refused with a clear message before any run starts.
// Also the batch_loss_mean metric (E2's "mean training loss over the epoch").
#include <gtest/gtest.h>

#include <cmath>

#include "engine/run/runner.hpp"
#include "engine/task/fashion_mnist.hpp"

namespace {

ExperimentSpec fashion_spec(int train, int test) {
  ExperimentSpec s;
  s.task.kind = TaskKind::fashion_mnist;
  s.task.input_dim = kFashionMnistPixels;
  s.task.train_size = train;
  s.task.test_size = test;
  s.model.widths = {16};
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.05;
  s.schedule.steps = 8;
  s.schedule.batch_size = 32;
  s.metrics = {"train_loss", "test_accuracy", "batch_loss_mean"};
  return s;
}

// The command line's limits with this build's subset.
SpecLimits with_data() {
  SpecLimits limits;
  limits.fashion_mnist_dir = MUPLAY_FASHION_MNIST_DIR;
  return limits;
}

bool contains(const std::vector<std::string>& errors, const std::string& text) {
  for (const std::string& e : errors)
    if (e.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(FashionMnist, SubsetLoadsStandardized) {
  const FashionMnistFiles files = probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR);
  if (!files.error.empty()) GTEST_SKIP() << files.error;
  EXPECT_GE(files.train, 2048);  // the native build cuts 10 000 + 2 000; the page 2 048 + 512
  EXPECT_GE(files.test, 512);
  const TaskData data = make_task(fashion_spec(1000, 200).task, MUPLAY_FASHION_MNIST_DIR);
  ASSERT_EQ(data.train.size, 1000);
  ASSERT_EQ(data.test.size, 200);
  EXPECT_TRUE(data.classification);
  EXPECT_EQ(data.outputs, 10);
  EXPECT_EQ(data.train.input_dim, 784);
  double sum = 0, sum2 = 0;
  for (double x : data.train.x) {
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / double(data.train.x.size()), var = sum2 / double(data.train.x.size()) - mean * mean;
  EXPECT_NEAR(mean, 0, 0.05);  // standardized with the full training set's statistics
  EXPECT_NEAR(var, 1, 0.05);
  int counts[10] = {};
  for (int label : data.train.labels) counts[label]++;
  for (int c : counts) EXPECT_GT(c, 60);  // roughly balanced: 100 per class on average
  // The first images are the first of the original files: item 0 of the training set is an ankle boot (9).
  EXPECT_EQ(data.train.labels[0], 9);
}

TEST(FashionMnist, TrainsAndReportsAccuracy) {
  if (!probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR).error.empty()) GTEST_SKIP();
  const SpecResult r = parse_spec_text(R"({"version":1,"task":{"kind":"fashion_mnist","input_dim":784,
      "train_size":256,"test_size":128},"model":{"widths":[32]},"optimizer":{"kind":"adam","lr":0.05},
      "schedule":{"steps":16,"batch_size":32},"metrics":["train_loss","test_accuracy"]})", with_data());
  ASSERT_TRUE(r.ok()) << r.errors[0];
  Runner runner(r.spec, MUPLAY_FASHION_MNIST_DIR);
  while (runner.step()) {}
  const ::Member& run = *runner.members()[0];
  ASSERT_EQ(run.status(), RunStatus::finished);
  const auto& loss = run.find_series("train_loss")->values;
  EXPECT_NEAR(loss.front(), std::log(10.0), 0.5);  // μP's output is ≈ 0 at init: uniform over 10 classes
  EXPECT_LT(loss.back(), 0.7 * loss.front());
  EXPECT_GT(run.find_series("test_accuracy")->values.back(), 0.5);  // chance is 0.1
}

TEST(FashionMnist, MissingOrShortDataIsAClearSpecError) {
  EXPECT_TRUE(contains(check_spec(fashion_spec(100, 100)), "task.kind: fashion_mnist: no Fashion-MNIST folder"));
  SpecLimits nowhere;
  nowhere.fashion_mnist_dir = "/nonexistent";
  const std::vector<std::string> errors = check_spec(fashion_spec(100, 100), nowhere);
  EXPECT_TRUE(contains(errors, "Fashion-MNIST data not found: cannot open /nonexistent/train-images.idx3"));
  EXPECT_TRUE(contains(errors, "dataset-fashion-mnist"));  // says how to get it
  EXPECT_THROW(make_task(fashion_spec(100, 100).task, nowhere.fashion_mnist_dir), std::runtime_error);
  if (!probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR).error.empty()) GTEST_SKIP();
  EXPECT_TRUE(contains(check_spec(fashion_spec(100000, 100), with_data()), "task.train_size: 100000 is more than the"));
  ExperimentSpec wrong_dim = fashion_spec(100, 100);
  wrong_dim.task.input_dim = 8;
  EXPECT_TRUE(contains(check_spec(wrong_dim, with_data()), "task.input_dim: 8 is not 784"));
  EXPECT_TRUE(check_spec(fashion_spec(100, 100), with_data()).empty());
}

// Full batch: every step's batch loss is the train loss at that step, so batch_loss_mean at record t is the mean
// of train_loss over records 0…t, and at the final record the mean over all T steps.
TEST(BatchLossMean, IsTheRunningMeanOfTheStepLosses) {
  ExperimentSpec s;
  s.schedule.steps = 10;
  s.metrics = {"train_loss", "batch_loss_mean"};
  Runner runner(s);
  while (runner.step()) {}
  const ::Member& run = *runner.members()[0];
  const auto& loss = run.find_series("train_loss")->values;
  const auto& mean = run.find_series("batch_loss_mean")->values;
  ASSERT_EQ(mean.size(), 11u);
  double sum = 0;
  for (int t = 0; t < 10; t++) {
    sum += loss[size_t(t)];
    EXPECT_NEAR(mean[size_t(t)], sum / (t + 1), 1e-15 * sum);
  }
  EXPECT_NEAR(mean[10], sum / 10, 1e-15 * sum);
}
