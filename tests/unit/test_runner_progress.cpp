// A replica fed by progress messages ends with the trained runner's results and parameters, bit for bit, however
// the messages fall between steps; bytes that do not fit the replica are refused.
#include <gtest/gtest.h>

#include <memory>

#include "engine/run/runner_progress.hpp"
#include "engine/spec/presets.hpp"

namespace {

ExperimentSpec preset(const std::string& file, int steps) {
  std::string text;
  EXPECT_TRUE(read_text_file(std::string(MUPLAY_EXAMPLES_DIR) + "/" + file, text)) << file;
  SpecResult r = parse_spec_text(text, SpecLimits{});
  EXPECT_TRUE(r.ok()) << file;
  r.spec.schedule.steps = steps;
  return r.spec;
}

// Trains `spec`, sending a message after every `every`-th step call (with the parameters while `with_parameters`
// says so for that call), and checks the replica against the runner after each message and at the end.
template <class WithParameters>
void expect_replica_follows(const ExperimentSpec& spec, int every, WithParameters with_parameters) {
  Runner trained(spec), replica(spec);
  ProgressCursor cursor;
  int messages = 0;
  for (long calls = 1;; calls++) {
    const bool more = trained.step();
    if (calls % every && more) continue;
    const std::vector<uint8_t> bytes = encode_progress(trained, cursor, with_parameters(calls));
    if (!bytes.empty()) {
      ASSERT_EQ(apply_progress(replica, bytes.data(), bytes.size()), "");
      messages++;
    }
    ASSERT_EQ(replica.total_steps(), trained.total_steps());
    ASSERT_EQ(replica.active_run(), trained.active_run());
    if (with_parameters(calls))
      for (size_t i = 0; i < trained.members().size(); i++)
        ASSERT_EQ(replica.members()[i]->parameters(), trained.members()[i]->parameters()) << "call " << calls;
    if (!more) break;
  }
  EXPECT_GT(messages, 1);
  EXPECT_TRUE(replica.done());
  EXPECT_EQ(json::write(replica.results()), json::write(trained.results()));
  for (size_t i = 0; i < trained.members().size(); i++) {
    EXPECT_EQ(replica.members()[i]->parameters(), trained.members()[i]->parameters()) << i;
    EXPECT_EQ(replica.members()[i]->recorded_steps(), trained.members()[i]->recorded_steps()) << i;
  }
  EXPECT_TRUE(encode_progress(trained, cursor, true).empty());  // nothing moved since the last message
}

}  // namespace

TEST(RunnerProgress, MlpSweepReplicaMatchesBitForBit) {
  ExperimentSpec s = preset("14-lr-transfer-toy-sp.json", 30);  // its largest lrs diverge: status and diverged_at too
  expect_replica_follows(s, 1, [](long) { return true; });
  expect_replica_follows(s, 7, [](long) { return false; });  // the final parameters come with the final state
  expect_replica_follows(s, 3, [](long call) { return call > 20 && call < 40; });  // a view opened, then closed
}

TEST(RunnerProgress, TransformerReplicaMatchesBitForBit) {
  expect_replica_follows(preset("30-anchor-identity.json", 40), 5, [](long call) { return call % 2 == 0; });
}

// Three runners of one spec, each training its shard; their messages reach the replica shard by shard, in two orders
// (every message of one shard before any of the next), the worst interleavings for a shard that spoke for others.
TEST(RunnerProgress, ShardsTrainedApartMakeTheWholeRunner) {
  for (const ExperimentSpec& s : {preset("14-lr-transfer-toy-sp.json", 30), preset("31-anchor-gamma-sweep.json", 12),
                                  preset("10-coord-check-mup.json", 4)}) {  // 10: widths 64 … 1024, shards unequal
    Runner whole(s);
    while (whole.step()) {}
    std::vector<std::vector<std::vector<uint8_t>>> messages(3);  // per shard, in the order sent
    for (int k = 0; k < 3; k++) {
      Runner shard(s);
      shard.train_shard(k, 3);
      ProgressCursor cursor;
      for (bool more = true; more;) {
        for (int i = 0; i < 3 && more; i++) more = shard.step();
        std::vector<uint8_t> bytes = encode_progress(shard, cursor, k == 1);
        if (!bytes.empty()) messages[size_t(k)].push_back(std::move(bytes));
      }
    }
    for (const std::vector<int>& order : {std::vector<int>{0, 1, 2}, std::vector<int>{2, 1, 0}}) {
      Runner replica(s);
      for (int k : order)
        for (const std::vector<uint8_t>& bytes : messages[size_t(k)])
          ASSERT_EQ(apply_progress(replica, bytes.data(), bytes.size()), "");
      EXPECT_TRUE(replica.done());
      EXPECT_EQ(replica.total_steps(), whole.total_steps());
      EXPECT_EQ(json::write(replica.results()), json::write(whole.results()));
      for (size_t i = 0; i < whole.members().size(); i++)
        EXPECT_EQ(replica.members()[i]->parameters(), whole.members()[i]->parameters()) << i;
    }
  }
}

// Each shard gets about the same number of parameters to train: 10's widths 64 … 1024 × 3 seeds (members in order
// of width) over 2 shards; taking every other member gave one shard two of the three widest, 1.2 × the mean.
TEST(RunnerProgress, ShardPlanBalancesTheWork) {
  const Runner runner(preset("10-coord-check-mup.json", 1));
  const std::vector<int> plan = runner.shard_plan(2);
  double load[2] = {0, 0};
  for (size_t i = 0; i < plan.size(); i++) load[plan[i]] += double(runner.members()[i]->parameters().size());
  const double mean = (load[0] + load[1]) / 2;
  EXPECT_LT(std::max(load[0], load[1]), 1.05 * mean) << load[0] << " vs " << load[1];

  const Runner equal(preset("31-anchor-gamma-sweep.json", 1));  // one size, three γ: members alternate, as before
  EXPECT_EQ(equal.shard_plan(2), (std::vector<int>{0, 1, 0}));
}

TEST(RunnerProgress, RefusesBytesThatDoNotFit) {
  const ExperimentSpec s = preset("10-coord-check-mup.json", 3);
  Runner trained(s), replica(s), other(preset("30-anchor-identity.json", 3));
  trained.step();
  ProgressCursor cursor;
  std::vector<uint8_t> bytes = encode_progress(trained, cursor, true);
  EXPECT_EQ(apply_progress(other, bytes.data(), bytes.size()), "progress message: another sweep");
  for (size_t keep : {size_t(3), size_t(21), bytes.size() / 3, bytes.size() / 2, bytes.size() - 1})  // truncated
    EXPECT_NE(apply_progress(replica, bytes.data(), keep), "") << keep;
  EXPECT_EQ(apply_progress(replica, bytes.data(), bytes.size()), "");
  bytes[0] ^= 1;
  EXPECT_EQ(apply_progress(replica, bytes.data(), bytes.size()), "progress message: unknown format");
}
