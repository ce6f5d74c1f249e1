// Experiment E9: the word-embedding toy. 40 words in 2 clusters, a corpus of 800 skip-gram pairs, a linear net with
// one hidden layer, full-batch SGD at η = 1 for 20 steps. Under μP (= MFP for one hidden layer) the PCA of the
// embeddings separates the clusters, more with width and most at n = ∞; under NTP it stays at chance.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/analysis/word_embedding.hpp"
#include "engine/run/runner.hpp"

namespace {

constexpr int kWords = 40;

ExperimentSpec toy(Preset preset) {
  ExperimentSpec s;
  s.model.widths = {64};
  s.model.activation = Activation::linear;
  s.parametrization.preset = preset;
  s.task.kind = TaskKind::skipgram;
  s.task.input_dim = kWords;
  s.task.train_size = 800;
  s.task.test_size = 200;
  s.optimizer.lr = 1.0;
  s.schedule.steps = 20;
  s.metrics = {"train_loss"};
  return s;
}

// Separation of the embeddings of every member of `s` after training, with each member's chance level.
struct Measured {
  double separation = 0, chance_p95 = 0, chance_mean = 0;
};
std::vector<Measured> trained_separations(ExperimentSpec s, int width, int seeds) {
  s.sweep.width = {width};
  s.sweep.seeds.clear();
  for (int i = 0; i < seeds; i++) s.sweep.seeds.push_back(uint64_t(i));
  Runner runner(s);
  while (runner.step()) {
  }
  std::vector<Measured> out;
  for (const auto& run : runner.members()) {
    const PcaPlane p = pca_plane(embedding_gram(*run->mlp()), kWords);
    const ChanceLevel c = chance_separation(p, skipgram_clusters(kWords), 400, run->coords().seed);
    out.push_back({cluster_separation(p, skipgram_clusters(kWords)), c.p95, c.mean});
  }
  return out;
}

double mean_separation(const std::vector<Measured>& m) {
  double s = 0;
  for (const Measured& x : m) s += x.separation / double(m.size());
  return s;
}

}  // namespace

// One example per word: its one-hot input, and its contexts' frequencies in a corpus of train_size pairs, of which a
// share kSkipgramSameCluster lies in the word's own cluster.
TEST(WordEmbedding, SkipgramTargetsAreContextFrequencies) {
  TaskConfig c;
  c.kind = TaskKind::skipgram;
  c.input_dim = 10;
  c.train_size = 20000;
  const Dataset d = make_task(c).train;
  ASSERT_EQ(d.size, 10);
  double same = 0;
  for (int w = 0; w < 10; w++) {
    double total = 0;
    for (int k = 0; k < 10; k++) {
      EXPECT_EQ(d.x[size_t(w * 10 + k)], k == w ? 1 : 0);
      total += d.y[size_t(w * 10 + k)];
      if (skipgram_cluster(w, 10) == skipgram_cluster(k, 10)) same += d.y[size_t(w * 10 + k)] / 10;
    }
    EXPECT_NEAR(total, 1, 1e-12);
  }
  EXPECT_NEAR(same, kSkipgramSameCluster, 0.015);  // 3σ of a binomial of 20 000 pairs
}

// Kernel PCA of points with known coordinates gives back their pairwise distances.
TEST(WordEmbedding, PcaPlaneKeepsDistancesOfPlanarPoints) {
  const std::vector<double> px{0, 3, -1, 2, 5}, py{1, 0, 2, -2, 1};
  std::vector<double> gram;
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 5; j++) gram.push_back(px[i] * px[j] + py[i] * py[j]);
  const PcaPlane p = pca_plane(gram, 5);
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < 5; j++) {
      const double want = std::hypot(px[i] - px[j], py[i] - py[j]);
      EXPECT_NEAR(std::hypot(p.x[i] - p.x[j], p.y[i] - p.y[j]), want, 1e-9);
    }
}

// The spec's check: separation non-decreasing in n toward ∞ (4 seeds per width; 10% slack for seed noise), and far
// above chance; NTK (NTP at n = 1024, same data and learning rate) at chance.
TEST(WordEmbedding, MupSeparatesMoreWithWidthAndNtkStaysAtChance) {
  const ExperimentSpec mup = toy(Preset::mup);
  double previous = 0, chance = 0;
  for (int width : {16, 64, 256, 1024}) {
    const std::vector<Measured> m = trained_separations(mup, width, 4);
    const double sep = mean_separation(m);
    chance = m[0].chance_mean;
    std::printf("muP n=%-5d separation %.3f (chance %.3f)\n", width, sep, chance);
    EXPECT_GE(sep, 0.9 * previous) << "n=" << width;
    previous = sep;
  }
  const TaskData data = make_task(mup.task);
  Runner runner(mup);  // an initialized member: linear_limit needs only its init scales
  const PcaPlane limit =
      pca_plane(embedding_gram_at_infinity(*runner.members()[0]->mlp(), data.train, mup.optimizer.lr, mup.schedule.steps), kWords);
  const double at_infinity = cluster_separation(limit, skipgram_clusters(kWords));
  std::printf("muP n=inf   separation %.3f\n", at_infinity);
  EXPECT_GE(at_infinity, 0.9 * previous);
  EXPECT_GT(previous, 10 * chance);

  const std::vector<Measured> ntk = trained_separations(toy(Preset::ntp), 1024, 4);
  double p95 = 0;
  for (const Measured& x : ntk) p95 += x.chance_p95 / double(ntk.size());
  std::printf("NTP n=1024  separation %.3f (chance 95th percentile %.3f)\n", mean_separation(ntk), p95);
  EXPECT_LE(mean_separation(ntk), p95);
}
