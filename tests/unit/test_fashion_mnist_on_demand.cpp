// The page fetches Fashion-MNIST only when a spec needs it: with the subset's sizes declared, a spec validates before
// the files are there (and is refused beyond those sizes); the probe says the files are not present yet; once they
// are, the files' own sizes count. Without a declaration (the CLI), missing files are an error, as before.
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

struct DeclaredScope {  // leaves the process as the CLI has it: nothing declared, the build's folder
  DeclaredScope(const std::string& dir, int train, int test) {
    set_fashion_mnist_dir(dir);
    declare_fashion_mnist_sizes(train, test);
  }
  ~DeclaredScope() {
    declare_fashion_mnist_sizes(0, 0);
    set_fashion_mnist_dir(MUPLAY_FASHION_MNIST_DIR);
  }
};

}  // namespace

TEST(FashionMnistOnDemand, DeclaredSizesValidateBeforeTheFilesArrive) {
  const std::string empty = (std::filesystem::temp_directory_path() / "muplay-no-fashion-here").string();
  DeclaredScope page(empty, 2048, 512);
  const FashionMnistFiles probe = probe_fashion_mnist(empty);
  EXPECT_FALSE(probe.present);
  EXPECT_EQ(probe.error, "");
  EXPECT_EQ(probe.train, 2048);
  EXPECT_EQ(probe.test, 512);
  EXPECT_TRUE(check_spec(fashion_spec(2048, 512)).empty()) << joined(check_spec(fashion_spec(2048, 512)));
  const std::string too_many = joined(check_spec(fashion_spec(3000, 512)));
  EXPECT_NE(too_many.find("task.train_size: 3000 is more than the 2048 training images"), std::string::npos) << too_many;
}

TEST(FashionMnistOnDemand, FilesThatArePresentCountWithTheirOwnSizes) {
  DeclaredScope page(MUPLAY_FASHION_MNIST_DIR, 2048, 512);
  const FashionMnistFiles probe = probe_fashion_mnist(MUPLAY_FASHION_MNIST_DIR);
  if (!probe.error.empty()) GTEST_SKIP() << probe.error;
  EXPECT_TRUE(probe.present);
  EXPECT_EQ(probe.train, 10000);  // the native build's subset (engine/data/CMakeLists.txt), not the declared sizes
  EXPECT_EQ(probe.test, 2000);
}

TEST(FashionMnistOnDemand, WithoutADeclarationMissingFilesAreAnError) {
  const std::string empty = (std::filesystem::temp_directory_path() / "muplay-no-fashion-here").string();
  DeclaredScope cli(empty, 0, 0);
  const std::string errors = joined(check_spec(fashion_spec(64, 64)));
  EXPECT_NE(errors.find("task.kind: fashion_mnist: Fashion-MNIST data not found"), std::string::npos) << errors;
}
