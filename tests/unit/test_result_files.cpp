// The files an experiment is saved as (engine/spec/result_files.hpp): the CSV has one row per run and recorded step,
// with the same numbers as the result document.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/run/runner.hpp"
#include "engine/spec/result_files.hpp"

namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST(ResultFiles, CsvHasARowPerRunAndRecordedStepWithTheResultsNumbers) {
  SpecResult spec = parse_spec_text(R"({"version":1,"model":{"widths":[8]},"task":{"train_size":8,"test_size":8},
      "schedule":{"steps":6,"record_every":2},"sweep":{"width":[4,8],"seeds":[0,1]},"metrics":["train_loss","act_rms"]})");
  ASSERT_TRUE(spec.ok()) << spec.errors[0];
  Runner runner(spec.spec);
  while (runner.step()) {}
  const json::Value results = runner.results();
  const std::vector<std::string> rows = lines(results_csv(results));
  EXPECT_EQ(rows[0], "width,lr,seed,status,step,train_loss,act_rms/h1,act_rms/f");
  const json::Value& runs = *results.find("runs");
  size_t expected_rows = 1;
  for (const json::Value& run : runs.array) expected_rows += run.find("recorded_steps")->array.size();
  ASSERT_EQ(rows.size(), expected_rows);
  // The first data row is run 0 at step 0, its loss written exactly as in the JSON document.
  const json::Value& run0 = runs.array[0];
  EXPECT_EQ(rows[1], "4,0.1,0,finished,0," + json::write(run0.find("series")->find("train_loss")->array[0]) +
                         "," + json::write(run0.find("series")->find("act_rms/h1")->array[0]) + "," +
                         json::write(run0.find("series")->find("act_rms/f")->array[0]));
  EXPECT_EQ(rows.back().substr(0, 19), "8,0.1,1,finished,6,");
}

TEST(ResultFiles, NonFiniteAndMissingValuesAreEmptyCells) {
  json::ParseResult doc = json::parse(R"({"runs":[
      {"width":4,"lr":1,"seed":0,"status":"diverged","recorded_steps":[0,1],"series":{"train_loss":[1,null]}},
      {"width":8,"lr":1,"seed":0,"status":"running","recorded_steps":[0],"series":{"test_loss":[2]}}]})");
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(results_csv(doc.value),
            "width,lr,seed,status,step,train_loss,test_loss\n"
            "4,1,0,diverged,0,1,\n"
            "4,1,0,diverged,1,,\n"
            "8,1,0,running,0,,2\n");
}

TEST(ResultFiles, FilesReadBackAsTheSameDocuments) {
  const ExperimentSpec spec;
  json::ParseResult back = json::parse(spec_file_text(spec));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(json::write(back.value), json::write(spec_to_json(spec)));
  json::Value results = json::Value::make_object();
  results.set("schema", json::Value::make_string("muplay-result"));
  EXPECT_EQ(result_file_text(results), "{\n \"schema\": \"muplay-result\"\n}\n");
}
