// A data set the user brings, read into a table of numbers: a CSV file, a NumPy .npy array or an .npz archive of
// arrays. What the table is trained on (which columns, the split, the scaling) is engine/task/table_task.hpp's.
//
// CSV (.csv, .tsv, .txt): one row per line; cells split at commas, else tabs, else semicolons, else runs of spaces
// (whichever the first line has); "quoted" cells may hold the separator; blank lines and lines starting with # are
// skipped; a UTF-8 byte-order mark and \r\n line ends are accepted. The first line is a header when one of its cells is
// not a number: its cells name the columns if there are as many as a row has and none is a number (scikit-learn's CSV
// files start with "150,4,setosa,versicolor,virginica": that line is skipped and the columns are numbered).
// Numbers are read as C's strtod reads them (Python's float() reads them to the same double).
// .npy: a 1-D (one column) or 2-D array of float64, float32, (un)signed integers or bool, little-endian, C or Fortran
// order. .npz (np.savez, not savez_compressed): its arrays side by side as columns, in the archive's order; every
// array has the same number of rows. Column names: the header's, "X[0]" for column 0 of the array X in an .npz, else
// "column 0"; columns are numbered from 0 in specs and messages, lines from 1.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

// Past these the file is refused before it is parsed; the README's "Bring your own data" states them.
constexpr size_t kMaxTableFileBytes = size_t(32) << 20;  // 32 MiB
constexpr int kMaxTableRows = 100000;
constexpr int kMaxTableColumns = 1024;

struct Table {
  int rows = 0, columns = 0;
  std::vector<std::string> names;  // one per column
  std::vector<double> values;      // rows × columns, row by row; NaN where a cell is not a finite number
  // Per column: where its first cell that is not a finite number is, and what it holds ("line 5: \"setosa\" is not
  // a number"); "" when every cell is one. Only a class-label column may have such cells.
  std::vector<std::string> problem;
  // Per column with a problem: every cell as written (class labels such as "setosa"); empty for the others.
  std::vector<std::vector<std::string>> text;
  std::string note;  // what the reader decided that a user may want to know ("the first line is a header")
};

// Reads `bytes` by the ending of `name` (.csv, .tsv, .txt, .npy, .npz). False, and `error` says what and where
// ("iris.csv line 17: 4 cells, the rows above have 5"), when the file cannot be a table.
bool read_table(const std::string& name, const std::string& bytes, Table& out, std::string& error);

// A file read from disk: its table, content hash and size, or why it could not be used.
struct TableFile {
  std::string path;  // as opened
  Table table;
  std::string sha256;
  size_t bytes = 0;
  std::string error;  // empty when `table` holds the file
};

// Reads the file at `path` (refusing one over kMaxTableFileBytes before reading it). Kept while the file's size and
// modification time stay the same, so a spec checked again and again (the page's editor) does not parse it again.
std::shared_ptr<const TableFile> read_table_file(const std::string& path);
