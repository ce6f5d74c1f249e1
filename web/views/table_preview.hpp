// The Data window: a data set the user just brought (a CSV or NumPy file, web/js/tables.js), shown before it becomes
// the experiment's task. Its size, each column's name and values (range, or the text it holds), and the choices a
// table task needs (engine/task/table_task.hpp): which column is the target and which are inputs, regression or
// classification (with the rows of each class), the train/test split and its seed, and the scaling. What the engine
// would refuse is said under the choices, and "Use this data" waits until there is nothing.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/task/task_config.hpp"

struct TablePreview {
  bool open = false;
  std::shared_ptr<const TableFile> file;
  std::string name;  // the file's name, as the spec will name it
  TableSpec choice;
  int train_size = 0, test_size = 0, seed = 0;
  std::vector<std::string> column_values;  // each column's values in words ("4.3 … 7.9", "text: 3 values")
};

// A preview of `file` (read without error) with the choices guessed from it.
TablePreview table_preview(std::shared_ptr<const TableFile> file, const std::string& name);
// The task the window's choices make (the file attached).
TaskConfig table_preview_task(const TablePreview& p);

enum class TablePreviewAction { none, use, cancel };
TablePreviewAction table_preview_window(TablePreview& p);
