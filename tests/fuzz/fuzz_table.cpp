// libFuzzer target: the data-set reader (engine/task/table_file.hpp) and the table task built on what it reads
// (engine/task/table_task.hpp), on arbitrary bytes, as a file a user drops on the page could be. The first byte picks
// the reader (c: CSV, n: .npy, z: .npz), the rest is the file. It must never crash, hang or leak, must say why it
// refuses a file, and a table it reads must be whole: every column named, every row of every column there, and the
// task the page would guess from it must build train and test sets of the sizes asked for.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "engine/task/table_task.hpp"

namespace {

void check(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "table reader: %s\n", what);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const char* name = data[0] == 'n' ? "f.npy" : data[0] == 'z' ? "f.npz" : "f.csv";
  auto file = std::make_shared<TableFile>();
  file->path = name;
  if (!read_table(name, std::string(reinterpret_cast<const char*>(data) + 1, size - 1), file->table, file->error)) {
    check(!file->error.empty(), "a refusal says why");
    return 0;
  }
  const Table& t = file->table;
  check(t.rows > 0 && t.columns > 0, "a table has rows and columns");
  check(t.values.size() == size_t(t.rows) * size_t(t.columns), "every cell has a value");
  check(t.names.size() == size_t(t.columns) && t.problem.size() == size_t(t.columns), "every column is named");
  for (int c = 0; c < t.columns; c++)  // a CSV's text column keeps each cell; an array's non-finite column has none
    check(t.text[size_t(c)].empty() || t.text[size_t(c)].size() == size_t(t.rows), "a text column keeps each cell");
  if (t.rows < 2) return 0;
  TaskConfig task;
  task.kind = TaskKind::table;
  task.table = guess_table_spec(t);
  task.table.file = name;
  task.table_file = file;
  task.input_dim = int(task.table.inputs.size());
  task.train_size = t.rows - 1;
  task.test_size = 1;
  for (const TableType type : {TableType::regression, TableType::classification}) {
    task.table.type = type;
    check(table_outputs(task) >= 1, "a task has an output");  // the budgets ask before the errors are looked at
    if (!table_task_errors(task).empty()) continue;
    Dataset train, test;
    table_sets(task, train, test);
    check(train.size == task.train_size && test.size == 1, "the split has the sizes asked for");
    check(train.x.size() == size_t(train.size) * size_t(task.input_dim), "every train row has its inputs");
  }
  return 0;
}
