// The table task: train and test sets from a data set the user brings (a CSV or NumPy file, engine/task/table_file.hpp),
// as task.table says:
//
//   columns:      task.table.targets (default: the last column) are what the network predicts; task.table.inputs
//                 (default: every other column) what it reads. task.input_dim is the number of inputs.
//   type:         regression (square loss on the target columns) or classification (one target column: its distinct
//                 values, sorted, numbers by value and text by bytes, are the classes 0, 1, ...).
//   split:        the rows shuffled by task.seed (Fisher-Yates on the engine's Rng), the first train_size train and
//                 the next test_size test. With a separate test file (task.table.test_file, the same columns), the
//                 train rows are the first train_size of the file's shuffled rows and the test rows the first
//                 test_size of the test file, in its order; classes are those of both files together.
//   standardize:  each input column (with inputs_and_targets, each regression target too) minus its mean on the train
//                 rows, over its standard deviation there (divided by the row count; a constant column is only
//                 centred), so inputs have the scale of the generated tasks' and the 1/√d first layer keeps h¹ = Θ(1).
//
// Every step is a fixed sequence of double operations, so engine/export/torch/tasks.py rebuilds the same sets bit for
// bit.
#pragma once
#include <string>
#include <vector>

#include "engine/task/task_config.hpp"

constexpr int kMaxTableClasses = 64;

// A first reading of a table for someone who just brought it: the last column is the target, a classification when
// it holds text or at most 20 distinct integers, and the inputs are the other columns of numbers.
TableSpec guess_table_spec(const Table& table);
// The share of the rows a guessed split trains on (the rest test).
constexpr double kGuessedTrainShare = 0.8;

// The target and input columns the task reads (the defaults filled in).
std::vector<int> table_target_columns(const TaskConfig& c);
std::vector<int> table_input_columns(const TaskConfig& c);
// The class names of a classification table (the target column's distinct values, sorted); empty otherwise.
std::vector<std::string> table_classes(const TaskConfig& c);
// The rows of each of those classes, in the same order.
std::vector<int> table_class_counts(const TaskConfig& c);
// Network outputs: the number of classes, or of regression targets.
int table_outputs(const TaskConfig& c);
// What stops the task from being built from its table, one message each ("task.table.targets[0]: column 7 is past
// the 5 columns of iris.csv"); empty when it can be.
std::vector<std::string> table_task_errors(const TaskConfig& c);
// Whether spec errors say that a table task's file is not where the front end looks (rather than that the spec or the
// file is wrong): the page then asks the user for the file.
bool table_file_missing(const std::vector<std::string>& errors);
// The train and test sets (the task must have no errors).
void table_sets(const TaskConfig& c, Dataset& train, Dataset& test);
