// What a task is: its kind, its target, its settings (TaskConfig) and the arrays a generator fills (Dataset).
// Apart from engine/task/task.hpp so that the generators of engine/task/ can use these types while task.cpp calls them.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/enum_names.hpp"
#include "engine/task/anchor_tasks.hpp"
#include "engine/task/table_file.hpp"

enum class TaskKind { sin_regression, sectors, fashion_mnist, skipgram, anchor, function_1d, boolean_cube, sum_sin,
                      image_2d, table };
inline constexpr EnumName<TaskKind> kTaskNames[] = {
    {TaskKind::sin_regression, "sin_regression"},
    {TaskKind::sectors, "sectors"},
    {TaskKind::fashion_mnist, "fashion_mnist"},
    {TaskKind::skipgram, "skipgram"},
    {TaskKind::anchor, "anchor"},
    {TaskKind::function_1d, "function_1d"},
    {TaskKind::boolean_cube, "boolean_cube"},
    {TaskKind::sum_sin, "sum_sin"},
    {TaskKind::image_2d, "image_2d"},
    {TaskKind::table, "table"},
};
inline const char* task_name(TaskKind k) { return enum_name(kTaskNames, k); }
// The target of function_1d and boolean_cube (engine/task/phenomena_tasks.hpp); `none` for the other kinds.
enum class Target { none, sin135, sin15, step, noisy_sin, piecewise_relu, four_points, parity, x1x2 };
inline constexpr EnumName<Target> kTargetNames[] = {
    {Target::none, "none"},
    {Target::sin135, "sin135"},
    {Target::sin15, "sin15"},
    {Target::step, "step"},
    {Target::noisy_sin, "noisy_sin"},
    {Target::piecewise_relu, "piecewise_relu"},
    {Target::four_points, "four_points"},
    {Target::parity, "parity"},
    {Target::x1x2, "x1x2"},
};
inline const char* target_name(Target t) { return enum_name(kTargetNames, t); }

constexpr double kSkipgramSameCluster = 0.7;

// A table task's data set and how it is read (engine/task/table_task.hpp).
enum class TableType { regression, classification };
inline constexpr EnumName<TableType> kTableTypeNames[] = {
    {TableType::regression, "regression"},
    {TableType::classification, "classification"},
};
enum class Standardize { none, inputs, inputs_and_targets };
inline constexpr EnumName<Standardize> kStandardizeNames[] = {
    {Standardize::none, "none"},
    {Standardize::inputs, "inputs"},
    {Standardize::inputs_and_targets, "inputs_and_targets"},
};
struct TableSpec {
  std::string file;    // its name; where it is, the front end knows (the CLI: the spec's folder)
  std::string sha256;  // of its bytes; "" until the front end has read it (it then fills this in, and `bytes`)
  int bytes = 0;
  std::vector<int> inputs;   // column indices from 0; empty: every column that is not a target
  std::vector<int> targets;  // empty: the last column
  TableType type = TableType::regression;
  Standardize standardize = Standardize::inputs;
  std::string test_file;  // a separate test set with the same columns ("": the file's rows are split)
  std::string test_sha256;
  int test_bytes = 0;
};

struct TaskConfig {
  TaskKind kind = TaskKind::sin_regression;
  int input_dim = 8;
  int train_size = 64;
  int test_size = 256;
  double frequency = 2;  // sin_regression
  int classes = 3;       // sectors
  double twist = 0;      // sectors
  uint64_t seed = 0;     // data seed: the same data for every sweep member (unless data_per_seed)
  // anchor tasks: each sweep seed draws its own data, with that seed in place of `seed` (members that share a seed
  // share their data), so a seed changes the data and the weights, as in the chapter-13 reference runs
  bool data_per_seed = false;
  // anchor: token sequences for a Transformer (engine/task/anchor_tasks.hpp). train_size, test_size and seed above
  // are used; anchor.train_size, anchor.test_size and anchor.seed are overwritten by them.
  AnchorTaskConfig anchor;
  Target target = Target::none;  // function_1d, boolean_cube
  double noise = 0.3;            // noisy_sin: std of the noise on the train targets
  bool center_target = false;    // subtract the train mean of y (initial condensation with sigmoid)
  // Train on the gradient-augmented loss (book eq. 6.3, engine/model/gradient_loss.hpp): the MSE plus the MSE of ∂f/∂x
  // against the target's derivative (function_1d targets sin135, sin15)
  bool gradient_loss = false;
  double filter_width = 0.2;  // δ of the fp_filter metric's Gaussian, in input units (engine/metrics/frequency_filter.hpp)
  TableSpec table;  // table
  // table: the file `table.file` names, as the front end read it (null until then); shared by every copy of the spec
  std::shared_ptr<const TableFile> table_file;
  std::shared_ptr<const TableFile> test_table_file;  // table.test_file, read likewise (null: none)
};

struct Dataset {
  int size = 0, input_dim = 0, outputs = 0;
  std::vector<double> x;    // size × input_dim
  std::vector<double> y;    // size × outputs (regression)
  std::vector<int> labels;  // size (classification)
};
