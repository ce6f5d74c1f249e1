#include "engine/task/table_task.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "engine/base/rng.hpp"

namespace {

// How table_task_errors begins when a file is not where the front end looks.
constexpr const char* kCannotOpen[] = {"task.table.file: cannot open ", "task.table.test_file: cannot open "};

const Table& table_of(const TaskConfig& c) { return c.table_file->table; }
double cell(const Table& t, int row, int column) { return t.values[size_t(row) * size_t(t.columns) + size_t(column)]; }
std::string column_name(const Table& t, int column) {
  return "column " + std::to_string(column) + " (\"" + t.names[size_t(column)] + "\")";
}

// The tables the task reads: the file, then the separate test file when there is one.
std::vector<const Table*> parts(const TaskConfig& c) {
  std::vector<const Table*> out{&c.table_file->table};
  if (c.test_table_file) out.push_back(&c.test_table_file->table);
  return out;
}

// Each row's class, per part: its label's rank among the sorted distinct labels of every part.
std::vector<std::vector<int>> row_classes(const TaskConfig& c, std::vector<std::string>& names) {
  const std::vector<const Table*> tables = parts(c);
  const int column = table_target_columns(c)[0];
  std::vector<std::vector<int>> classes;
  if (tables[0]->problem[size_t(column)].empty()) {  // numbers (has_class_labels: in every part)
    std::map<double, int> rank;
    for (const Table* t : tables)
      for (int r = 0; r < t->rows; r++) rank[cell(*t, r, column)] = 0;
    for (auto& [value, k] : rank) {
      k = int(names.size());
      std::ostringstream s;
      s.precision(17);
      s << value;
      names.push_back(s.str());
    }
    for (const Table* t : tables) {
      classes.emplace_back();
      for (int r = 0; r < t->rows; r++) classes.back().push_back(rank[cell(*t, r, column)]);
    }
    return classes;
  }
  std::map<std::string, int> rank;
  for (const Table* t : tables)
    for (const std::string& label : t->text[size_t(column)]) rank[label] = 0;
  for (auto& [label, k] : rank) k = int(names.size()), names.push_back(label);
  for (const Table* t : tables) {
    classes.emplace_back();
    for (const std::string& label : t->text[size_t(column)]) classes.back().push_back(rank[label]);
  }
  return classes;
}

// Whether the target column can name classes: it exists, and holds finite numbers in every part, or text (a CSV's)
// in every part.
bool has_class_labels(const TaskConfig& c) {
  if (c.table.type != TableType::classification || !c.table_file || !c.table_file->error.empty()) return false;
  if (c.test_table_file && !c.test_table_file->error.empty()) return false;
  const int column = table_target_columns(c)[0];
  int numbers = 0, text = 0;
  for (const Table* t : parts(c)) {
    if (column < 0 || column >= t->columns) return false;
    numbers += t->problem[size_t(column)].empty();
    text += !t->text[size_t(column)].empty();
  }
  return numbers == int(parts(c).size()) || text == int(parts(c).size());
}

// The row order of the split.
std::vector<int> shuffled_rows(const TaskConfig& c) {
  const int rows = table_of(c).rows;
  Rng rng = Rng::stream(c.seed, /*purpose=*/1);
  std::vector<int> order(static_cast<size_t>(rows));
  for (int i = 0; i < rows; i++) order[size_t(i)] = i;
  for (int i = rows - 1; i > 0; i--) std::swap(order[size_t(i)], order[rng.below(uint64_t(i) + 1)]);
  return order;
}

// Columns of `values` (size × width) minus their mean on the train part, over their standard deviation there.
void standardize(std::vector<double>& train, std::vector<double>& test, int width) {
  const size_t train_rows = train.size() / size_t(width), test_rows = test.size() / size_t(width);
  for (int k = 0; k < width; k++) {
    double mean = 0, variance = 0;
    for (size_t r = 0; r < train_rows; r++) mean += train[r * size_t(width) + size_t(k)];
    mean /= double(train_rows);
    for (size_t r = 0; r < train_rows; r++) {
      const double d = train[r * size_t(width) + size_t(k)] - mean;
      variance += d * d;
    }
    variance /= double(train_rows);
    const double scale = variance > 0 ? std::sqrt(variance) : 1.0;
    for (size_t r = 0; r < train_rows; r++) train[r * size_t(width) + size_t(k)] = (train[r * size_t(width) + size_t(k)] - mean) / scale;
    for (size_t r = 0; r < test_rows; r++) test[r * size_t(width) + size_t(k)] = (test[r * size_t(width) + size_t(k)] - mean) / scale;
  }
}

}  // namespace

TableSpec guess_table_spec(const Table& t) {
  TableSpec spec;
  const int target = t.columns - 1;
  std::set<double> distinct;
  bool integers = true;
  for (int r = 0; r < t.rows && integers && distinct.size() <= 20; r++) {
    const double x = cell(t, r, target);
    integers = std::isfinite(x) && x == std::floor(x);
    distinct.insert(x);
  }
  const bool text = !t.problem[size_t(target)].empty();
  if (text || (integers && distinct.size() >= 2 && distinct.size() <= 20)) spec.type = TableType::classification;
  spec.targets = {target};
  for (int k = 0; k < target; k++)
    if (t.problem[size_t(k)].empty()) spec.inputs.push_back(k);
  return spec;
}

std::vector<int> table_target_columns(const TaskConfig& c) {
  if (!c.table.targets.empty()) return c.table.targets;
  return {c.table_file ? std::max(table_of(c).columns - 1, 0) : 0};
}

std::vector<int> table_input_columns(const TaskConfig& c) {
  if (!c.table.inputs.empty() || !c.table_file) return c.table.inputs;
  const std::vector<int> targets = table_target_columns(c);
  std::vector<int> inputs;
  for (int k = 0; k < table_of(c).columns; k++)
    if (std::find(targets.begin(), targets.end(), k) == targets.end()) inputs.push_back(k);
  return inputs;
}

namespace {

// A classification target's class names and the rows of each.
struct ClassLabels {
  std::vector<std::string> names;
  std::vector<int> counts;
};

ClassLabels count_classes(const TaskConfig& c) {
  ClassLabels out;
  const std::vector<std::vector<int>> classes = row_classes(c, out.names);
  out.counts.assign(out.names.size(), 0);
  for (const std::vector<int>& part : classes)
    for (int k : part) out.counts[size_t(k)]++;
  return out;
}

// Kept by the files' contents (their SHA-256, which read_table_file fills) and the column: the budgets ask once per
// sweep member and the Data window once per frame, and a file of 10^5 rows takes milliseconds each time. A handful of
// entries covers a page switching between a few data sets; a table without a hash (built in memory) is counted anew.
ClassLabels class_labels(const TaskConfig& c) {
  if (!has_class_labels(c)) return {};
  if (c.table_file->sha256.empty() || (c.test_table_file && c.test_table_file->sha256.empty()))
    return count_classes(c);
  static std::mutex mutex;
  static std::map<std::string, ClassLabels> known;
  const std::string key = c.table_file->sha256 + "/" + (c.test_table_file ? c.test_table_file->sha256 : "") + "/" +
                          std::to_string(table_target_columns(c)[0]);
  const std::lock_guard<std::mutex> lock(mutex);
  if (const auto at = known.find(key); at != known.end()) return at->second;
  if (known.size() >= 8) known.clear();
  return known[key] = count_classes(c);
}

}  // namespace

std::vector<std::string> table_classes(const TaskConfig& c) { return class_labels(c).names; }

std::vector<int> table_class_counts(const TaskConfig& c) { return class_labels(c).counts; }

int table_outputs(const TaskConfig& c) {
  if (c.table.type == TableType::classification) return std::max(int(table_classes(c).size()), 1);
  return int(table_target_columns(c).size());
}

std::vector<std::string> table_task_errors(const TaskConfig& c) {
  std::vector<std::string> errors;
  if (c.table.file.empty()) return {"task.table.file: missing: a table task names its data file (.csv, .npy or .npz)"};
  if (!c.table_file) return {"task.table.file: " + c.table.file + " has not been read (this front end has no copy)"};
  const TableFile& f = *c.table_file;
  if (!f.error.empty()) return {"task.table.file: " + f.error};  // "cannot open PATH" when it is not there
  if (!c.table.sha256.empty() && (c.table.sha256 != f.sha256 || size_t(c.table.bytes) != f.bytes))
    return {"task.table.sha256: the spec names " + c.table.file + " of " + std::to_string(c.table.bytes) +
            " bytes (sha256 " + c.table.sha256.substr(0, 12) + "…), the file given is " + f.path + " of " +
            std::to_string(f.bytes) + " bytes (sha256 " + f.sha256.substr(0, 12) + "…): not the same data"};
  const Table& t = f.table;
  if (!c.table.test_file.empty()) {
    if (!c.test_table_file) return {"task.table.test_file: " + c.table.test_file + " has not been read"};
    const TableFile& g = *c.test_table_file;
    if (!g.error.empty()) return {"task.table.test_file: " + g.error};
    if (!c.table.test_sha256.empty() && (c.table.test_sha256 != g.sha256 || size_t(c.table.test_bytes) != g.bytes))
      return {"task.table.test_sha256: the spec names " + c.table.test_file + " of " +
              std::to_string(c.table.test_bytes) + " bytes (sha256 " + c.table.test_sha256.substr(0, 12) +
              "…), the file given is " + g.path + " of " + std::to_string(g.bytes) + " bytes (sha256 " +
              g.sha256.substr(0, 12) + "…): not the same data"};
    if (g.table.columns != t.columns)
      return {"task.table.test_file: " + c.table.test_file + " has " + std::to_string(g.table.columns) +
              " columns, " + c.table.file + " has " + std::to_string(t.columns)};
  }
  // Inputs and regression targets must be finite numbers. Class labels may be text, in a CSV: an array's NaN or
  // infinity names no class.
  auto check_columns = [&](const char* field, const std::vector<int>& columns, bool labels) {
    for (size_t i = 0; i < columns.size(); i++) {
      const std::string where = std::string("task.table.") + field + "[" + std::to_string(i) + "]: ";
      if (columns[i] >= t.columns) {
        errors.push_back(where + "column " + std::to_string(columns[i]) + " is past the " + std::to_string(t.columns) +
                         " columns of " + c.table.file + " (columns count from 0)");
        continue;
      }
      const std::vector<const Table*> tables = parts(c);
      for (size_t p = 0; p < tables.size(); p++) {
        const Table& part = *tables[p];
        const std::string& file = p == 0 ? c.table.file : c.table.test_file;
        const bool text_labels = labels && !part.text[size_t(columns[i])].empty();
        if (!text_labels && !part.problem[size_t(columns[i])].empty())
          errors.push_back(where + file + " " + column_name(part, columns[i]) + ", " + part.problem[size_t(columns[i])]);
      }
    }
  };
  const bool classification = c.table.type == TableType::classification;
  const std::vector<int> targets = table_target_columns(c), inputs = table_input_columns(c);
  check_columns("targets", targets, classification);
  check_columns("inputs", inputs, false);
  if (!errors.empty()) return errors;
  if (classification && targets.size() == 1 && !has_class_labels(c))
    errors.push_back("task.table.test_file: column " + std::to_string(targets[0]) + " holds text in one file and "
                     "numbers in the other: the classes must be written alike");
  for (int k : inputs)
    if (std::find(targets.begin(), targets.end(), k) != targets.end())
      errors.push_back("task.table.inputs: column " + std::to_string(k) + " is also a target");
  if (inputs.empty()) errors.push_back("task.table.inputs: no input column is left (every column is a target)");
  if (int(inputs.size()) != c.input_dim)
    errors.push_back("task.input_dim: " + std::to_string(c.input_dim) + " is not the " + std::to_string(inputs.size()) +
                     " input columns of " + c.table.file);
  if (c.test_table_file) {
    if (c.train_size > t.rows)
      errors.push_back("task.train_size: " + std::to_string(c.train_size) + " is more than the " +
                       std::to_string(t.rows) + " rows of " + c.table.file);
    if (c.test_size > c.test_table_file->table.rows)
      errors.push_back("task.test_size: " + std::to_string(c.test_size) + " is more than the " +
                       std::to_string(c.test_table_file->table.rows) + " rows of " + c.table.test_file);
  } else if (c.train_size + c.test_size > t.rows) {
    errors.push_back("task.test_size: train_size + test_size = " + std::to_string(c.train_size + c.test_size) +
                     " is more than the " + std::to_string(t.rows) + " rows of " + c.table.file);
  }
  if (classification && targets.size() != 1)
    errors.push_back("task.table.targets: classification has one target column (the class label), not " +
                     std::to_string(targets.size()));
  if (classification && targets.size() == 1) {
    const size_t classes = table_classes(c).size();
    if (classes < 2)
      errors.push_back("task.table.targets: " + c.table.file + " " + column_name(t, targets[0]) +
                       " holds a single class: nothing to classify");
    if (classes > size_t(kMaxTableClasses))
      errors.push_back("task.table.targets: " + c.table.file + " " + column_name(t, targets[0]) + " holds " +
                       std::to_string(classes) + " distinct values, more than " + std::to_string(kMaxTableClasses) +
                       " classes (for a numeric target use task.table.type \"regression\")");
  }
  if (c.table.standardize == Standardize::inputs_and_targets && classification)
    errors.push_back("task.table.standardize: inputs_and_targets needs a regression table (class labels are not "
                     "scaled)");
  return errors;
}

bool table_file_missing(const std::vector<std::string>& errors) {
  for (const std::string& e : errors)
    for (const char* start : kCannotOpen)
      if (e.rfind(start, 0) == 0) return true;
  return false;
}

void table_sets(const TaskConfig& c, Dataset& train, Dataset& test) {
  const std::vector<const Table*> tables = parts(c);
  const std::vector<int> inputs = table_input_columns(c), targets = table_target_columns(c);
  const bool classification = c.table.type == TableType::classification;
  std::vector<std::string> names;
  const std::vector<std::vector<int>> classes = classification ? row_classes(c, names) : std::vector<std::vector<int>>{};
  const std::vector<int> order = shuffled_rows(c);
  const int d = int(inputs.size()), outputs = classification ? 1 : int(targets.size());
  // `size` rows of part `p`: from `first` on in the shuffled order (the file), or in the file's order (a test file).
  auto fill = [&](Dataset& out, size_t p, int first, int size) {
    const Table& t = *tables[p];
    out = Dataset{size, d, outputs, std::vector<double>(size_t(size) * size_t(d)), {}, {}};
    if (classification) out.labels.resize(size_t(size));
    else out.y.resize(size_t(size) * size_t(outputs));
    for (int i = 0; i < size; i++) {
      const int row = p == 0 ? order[size_t(first + i)] : first + i;
      for (int k = 0; k < d; k++) out.x[size_t(i) * size_t(d) + size_t(k)] = cell(t, row, inputs[size_t(k)]);
      if (classification) out.labels[size_t(i)] = classes[p][size_t(row)];
      else
        for (int k = 0; k < outputs; k++) out.y[size_t(i) * size_t(outputs) + size_t(k)] = cell(t, row, targets[size_t(k)]);
    }
  };
  fill(train, 0, 0, c.train_size);
  if (tables.size() > 1) fill(test, 1, 0, c.test_size);
  else fill(test, 0, c.train_size, c.test_size);
  if (c.table.standardize != Standardize::none) standardize(train.x, test.x, d);
  if (c.table.standardize == Standardize::inputs_and_targets) standardize(train.y, test.y, outputs);
}
