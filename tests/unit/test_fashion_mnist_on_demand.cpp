// The page fetches Fashion-MNIST only when a spec needs it: with the subset's sizes declared, a spec validates before
// the files are there (and is refused beyond those sizes); once they are, the files' own sizes count. Without a
// declaration (the CLI), missing files are an error.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/spec/spec.hpp"
#include "engine/task/fashion_mnist.hpp"

namespace {

ExperimentSpec fashion_spec(int train, int test) {
  ExperimentSpec s;
  s.task.kind = TaskKind::fashion_mnist;
  s.task.input_dim = kFashionMnistPixels;
  s.task.train_size = train;
  s.task.test_size = test;
  s.model.widths = {16};
  return s;
}

std::string joined(const std::vector<std::string>& errors) {
  std::string all;
  for (const auto& e : errors) all += e + "\n";
  return all;
}

// The page's way: a folder and the sizes of the subset it will fetch there.
SpecLimits declared(const std::string& dir, int train, int test) {
  SpecLimits limits;
  limits.fashion_mnist_dir = dir;
  limits.fashion_mnist_train = train;
  limits.fashion_mnist_test = test;
  return limits;
}

std::string empty_folder() { return (std::filesystem::temp_directory_path() / "muplay-no-fashion-here").string(); }

}  // namespace

TEST(FashionMnistOnDemand, DeclaredSizesValidateBeforeTheFilesArrive) {
  const SpecLimits page = declared(empty_folder(), 2048, 512);
  EXPECT_NE(probe_fashion_mnist(page.fashion_mnist_dir).error, "");  // the files are not there yet
  EXPECT_TRUE(check_spec(fashion_spec(2048, 512), page).empty()) << joined(check_spec(fashion_spec(2048, 512), page));
  const std::string too_many = joined(check_spec(fashion_spec(3000, 512), page));
  EXPECT_NE(too_many.find("task.train_size: 3000 is more than the 2048 training images"), std::string::npos) << too_many;
}

TEST(FashionMnistOnDemand, FilesThatArePresentCountWithTheirOwnSizes) {
  const SpecLimits page = declared(MUPLAY_FASHION_MNIST_DIR, 2048, 512);
  const FashionMnistFiles probe = probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR);
  if (!probe.error.empty()) GTEST_SKIP() << probe.error;
  EXPECT_EQ(probe.train, 10000);  // the native build's subset (engine/data/CMakeLists.txt), not the declared sizes
  EXPECT_EQ(probe.test, 2000);
  EXPECT_TRUE(check_spec(fashion_spec(3000, 1000), page).empty()) << joined(check_spec(fashion_spec(3000, 1000), page));
}

TEST(FashionMnistOnDemand, WithoutADeclarationMissingFilesAreAnError) {
  const std::string errors = joined(check_spec(fashion_spec(64, 64), declared(empty_folder(), 0, 0)));
  EXPECT_NE(errors.find("task.kind: fashion_mnist: Fashion-MNIST data not found"), std::string::npos) << errors;
}
