#include "engine/task/table_file.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/base/sha256.hpp"

namespace {

using Row = std::vector<std::string>;

std::string too_large(const std::string& name, size_t bytes) {
  return name + ": " + std::to_string(bytes) + " bytes, more than the limit of " + std::to_string(kMaxTableFileBytes) +
         " (32 MiB)";
}

bool fail(std::string& error, const std::string& message) {
  error = message;
  return false;
}

bool ends_with(const std::string& s, const char* end) {
  const size_t n = std::strlen(end);
  if (s.size() < n) return false;
  for (size_t i = 0; i < n; i++)
    if (std::tolower((unsigned char)s[s.size() - n + i]) != end[i]) return false;
  return true;
}

// ---- CSV ----------------------------------------------------------------------------------------------------------

// A text file is UTF-8 without NUL bytes: anything else is refused as binary, with the first offending offset.
bool check_text(const std::string& name, const std::string& bytes, std::string& error) {
  for (size_t i = 0; i < bytes.size(); i++) {
    const unsigned char c = (unsigned char)bytes[i];
    int continuation = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    bool ok = c != 0 && continuation >= 0 && i + size_t(continuation) < bytes.size();
    for (int k = 1; ok && k <= continuation; k++) ok = ((unsigned char)bytes[i + size_t(k)] >> 6) == 2;
    if (!ok) {
      char at[80];
      std::snprintf(at, sizeof at, " is not a text file (byte 0x%02x at offset %zu)", c, i);
      return fail(error, name + at + ": a CSV must be text; a NumPy array must be named .npy or .npz");
    }
    i += size_t(continuation);
  }
  return true;
}

char separator_of(const std::string& line) {
  for (char c : {',', '\t', ';'})
    if (line.find(c) != std::string::npos) return c;
  return ' ';
}

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The cells of one line; false when a quote is not closed.
bool split_line(const std::string& line, char separator, Row& cells) {
  cells.clear();
  if (separator == ' ') {
    std::istringstream words(line);
    for (std::string w; words >> w;) cells.push_back(w);
    return true;
  }
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); i++) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') cell += '"', i++;
    else if (c == '"' && (quoted || trimmed(cell).empty())) quoted = !quoted, cell = quoted ? "" : cell;
    else if (c == separator && !quoted) cells.push_back(trimmed(cell)), cell.clear();
    else cell += c;
  }
  cells.push_back(trimmed(cell));
  return !quoted;
}

// A finite number written as the whole cell.
bool parse_number(const std::string& cell, double& x) {
  if (cell.empty()) return false;
  char* end = nullptr;
  x = std::strtod(cell.c_str(), &end);
  return end == cell.c_str() + cell.size() && std::isfinite(x);
}

std::string describe_cell(const std::string& cell) {
  double x;
  if (cell.empty()) return "an empty cell";
  const std::string shown = "\"" + cell.substr(0, 30) + (cell.size() > 30 ? "…\"" : "\"");
  char* end = nullptr;
  x = std::strtod(cell.c_str(), &end);
  if (end == cell.c_str() + cell.size() && !std::isfinite(x)) return shown + " is not a finite number";
  return shown + " is not a number";
}

// Appends a row. A column's first cell that is not a number makes it a text column: its cells so far are split again
// from their lines, so that every cell of it is kept as written.
void add_row(const Row& cells, int line, const std::vector<std::string>& lines_above, char separator, Table& t) {
  for (int c = 0; c < t.columns; c++) {
    double x;
    const std::string& cell = cells[size_t(c)];
    const bool number = parse_number(cell, x);
    t.values.push_back(number ? x : NAN);
    if (!number && t.problem[size_t(c)].empty()) {
      t.problem[size_t(c)] = "line " + std::to_string(line) + ": " + describe_cell(cell);
      Row above;
      for (const std::string& l : lines_above) {
        split_line(l, separator, above);
        t.text[size_t(c)].push_back(above[size_t(c)]);
      }
    }
    if (!t.problem[size_t(c)].empty()) t.text[size_t(c)].push_back(cell);
  }
  t.rows++;
}

bool read_csv(const std::string& name, std::string bytes, Table& t, std::string& error) {
  if (bytes.compare(0, 3, "\xEF\xBB\xBF") == 0) bytes.erase(0, 3);
  if (!check_text(name, bytes, error)) return false;
  std::istringstream in(bytes);
  std::string line;
  Row header, cells;
  bool has_header = false;
  int first_row_line = 0;
  char separator = 0;
  std::vector<std::string> row_lines;  // the rows' lines, for a column that turns out to hold text
  for (int number = 1; std::getline(in, line); number++) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    if (!separator) separator = separator_of(line);
    if (!split_line(line, separator, cells)) return fail(error, name + " line " + std::to_string(number) +
                                                                 ": a quote is not closed");
    if (cells.empty()) continue;  // only other white space (a form feed): blank
    if (!first_row_line && !has_header) {
      double x;
      for (const std::string& cell : cells) has_header = has_header || !parse_number(cell, x);
      if (has_header) {
        header = cells;
        continue;
      }
    }
    if (!first_row_line) {
      first_row_line = number;
      t.columns = int(cells.size());
      if (t.columns > kMaxTableColumns)
        return fail(error, name + " line " + std::to_string(number) + ": " + std::to_string(t.columns) +
                               " columns, more than " + std::to_string(kMaxTableColumns));
      t.problem.assign(size_t(t.columns), "");
      t.text.assign(size_t(t.columns), {});
    }
    if (int(cells.size()) != t.columns)
      return fail(error, name + " line " + std::to_string(number) + ": " + std::to_string(cells.size()) +
                             " cells, line " + std::to_string(first_row_line) + " has " + std::to_string(t.columns));
    if (t.rows == kMaxTableRows)
      return fail(error, name + ": more than " + std::to_string(kMaxTableRows) + " rows");
    add_row(cells, number, row_lines, separator, t);
    row_lines.push_back(line);
  }
  if (t.rows == 0)
    return fail(error, name + (has_header ? " has a header line and no rows of numbers" : " has no rows"));
  double x;
  bool header_of_names = has_header && int(header.size()) == t.columns;
  for (const std::string& cell : header) header_of_names = header_of_names && !parse_number(cell, x);
  const bool named = header_of_names;
  for (int c = 0; c < t.columns; c++) t.names.push_back(named ? header[size_t(c)] : "column " + std::to_string(c));
  if (has_header && !named)
    t.note = "the first line (" + std::to_string(header.size()) + " cells) is not a row of numbers: skipped, columns "
             "are numbered";
  return true;
}

// ---- NumPy ----------------------------------------------------------------------------------------------------------

// A little-endian number of `bytes` bytes at `at`; bytes past the end of `b` read as 0 (a damaged file's offsets are
// checked where they are used).
uint32_t little_endian(const std::string& b, size_t at, int bytes) {
  uint32_t x = 0;
  for (int i = bytes - 1; i >= 0; i--) x = x << 8 | (at + size_t(i) < b.size() ? (unsigned char)b[at + size_t(i)] : 0);
  return x;
}

// The value of `key` in the .npy header, a Python dict literal ("{'descr': '<f8', 'fortran_order': False, ...}").
std::string header_value(const std::string& header, const std::string& key) {
  size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return "";
  at = header.find(':', at);
  if (at == std::string::npos) return "";
  const size_t start = header.find_first_not_of(' ', at + 1);
  if (start == std::string::npos) return "";
  const size_t end = header[start] == '(' ? header.find(')', start) + 1 : header.find_first_of(",}", start);
  return trimmed(header.substr(start, end == std::string::npos ? std::string::npos : end - start));
}

// One element of dtype `descr` at `p` as a double; descr's are those supported_dtype accepts.
double element(const char* p, char kind, int size) {
  uint64_t bits = 0;
  for (int i = size - 1; i >= 0; i--) bits = bits << 8 | (unsigned char)p[i];
  if (kind == 'f' && size == 8) {
    double x;
    std::memcpy(&x, &bits, 8);
    return x;
  }
  if (kind == 'f') {
    const uint32_t b32 = uint32_t(bits);
    float x;
    std::memcpy(&x, &b32, 4);
    return x;
  }
  if (kind == 'i') {
    const int shift = 64 - 8 * size;  // sign-extend
    return double(int64_t(bits << shift) >> shift);
  }
  return double(bits);  // 'u' and 'b'
}

struct NpyArray {
  int rows = 0, columns = 0;
  std::vector<double> values;  // row by row
};

bool read_npy(const std::string& name, const std::string& b, NpyArray& a, std::string& error) {
  if (b.size() < 10 || b.compare(0, 6, "\x93NUMPY") != 0) return fail(error, name + " is not a NumPy .npy file");
  const int major = (unsigned char)b[6];
  const size_t length_bytes = major == 1 ? 2 : 4;
  if (b.size() < 8 + length_bytes) return fail(error, name + ": the .npy header is cut short");
  const size_t header_length = little_endian(b, 8, int(length_bytes));
  const size_t data_at = 8 + length_bytes + header_length;
  if (data_at > b.size()) return fail(error, name + ": the .npy header is cut short");
  const std::string header = b.substr(8 + length_bytes, header_length);
  const std::string descr = header_value(header, "descr"), shape = header_value(header, "shape");
  const bool fortran = header_value(header, "fortran_order") == "True";
  const std::string type = descr.size() >= 4 ? descr.substr(1, descr.size() - 2) : "";
  const char order = type.empty() ? 0 : type[0], kind = type.size() > 1 ? type[1] : 0;
  const int size = type.size() == 3 ? type[2] - '0' : 0;
  const bool supported = (order == '<' || order == '|') &&
                         ((kind == 'f' && (size == 4 || size == 8)) ||
                          ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                          (kind == 'b' && size == 1));
  if (!supported)
    return fail(error, name + ": dtype " + descr + " is not supported (float64, float32, integers or bool, "
                       "little-endian)");
  std::vector<long> dims;
  for (size_t i = 1; i < shape.size();) {
    char* end = nullptr;
    const long d = std::strtol(shape.c_str() + i, &end, 10);
    if (end == shape.c_str() + i) break;
    dims.push_back(d);
    i = size_t(end - shape.c_str()) + 1;
    while (i < shape.size() && shape[i] == ' ') i++;
  }
  if (dims.empty() || dims.size() > 2)
    return fail(error, name + ": shape " + shape + " is not supported (a 1-D or 2-D array: reshape to (rows, "
                       "columns))");
  const long rows = dims[0], columns = dims.size() == 2 ? dims[1] : 1;
  if (rows > kMaxTableRows) return fail(error, name + ": more than " + std::to_string(kMaxTableRows) + " rows");
  if (columns > kMaxTableColumns)
    return fail(error, name + ": " + std::to_string(columns) + " columns, more than " + std::to_string(kMaxTableColumns));
  if (rows == 0 || columns == 0) return fail(error, name + ": shape " + shape + " holds no values");
  const size_t count = size_t(rows) * size_t(columns);
  if (b.size() - data_at < count * size_t(size))
    return fail(error, name + ": " + std::to_string((b.size() - data_at) / size_t(size)) + " values, shape " +
                           shape + " needs " + std::to_string(count));
  a.rows = int(rows), a.columns = int(columns);
  a.values.resize(count);
  for (size_t i = 0; i < count; i++) {
    const size_t r = fortran ? i % size_t(rows) : i / size_t(columns);
    const size_t c = fortran ? i / size_t(rows) : i % size_t(columns);
    a.values[r * size_t(columns) + c] = element(b.data() + data_at + i * size_t(size), kind, size);
  }
  return true;
}

// Appends `a` as the next columns of `t`, named after the array.
void append_columns(const NpyArray& a, const std::string& array_name, Table& t) {
  std::vector<double> values(size_t(t.rows) * size_t(t.columns + a.columns));
  for (int r = 0; r < t.rows; r++)
    for (int c = 0; c < t.columns + a.columns; c++)
      values[size_t(r) * size_t(t.columns + a.columns) + size_t(c)] =
          c < t.columns ? t.values[size_t(r) * size_t(t.columns) + size_t(c)]
                        : a.values[size_t(r) * size_t(a.columns) + size_t(c - t.columns)];
  t.values = std::move(values);
  for (int c = 0; c < a.columns; c++) {
    const std::string index = a.columns == 1 ? "" : "[" + std::to_string(c) + "]";
    t.names.push_back(array_name.empty() ? "column " + std::to_string(t.columns + c) : array_name + index);
  }
  t.columns += a.columns;
}

// A NaN or infinity in an array: the same problem a CSV cell would have.
void mark_non_finite(Table& t) {
  t.problem.assign(size_t(t.columns), "");
  t.text.assign(size_t(t.columns), {});
  for (int r = 0; r < t.rows; r++)
    for (int c = 0; c < t.columns; c++) {
      const double x = t.values[size_t(r) * size_t(t.columns) + size_t(c)];
      if (!std::isfinite(x) && t.problem[size_t(c)].empty())
        t.problem[size_t(c)] = "row " + std::to_string(r) + ": " + (std::isnan(x) ? "NaN" : "infinity") +
                               " is not a finite number";
    }
}

bool read_npy_table(const std::string& name, const std::string& bytes, Table& t, std::string& error) {
  NpyArray a;
  if (!read_npy(name, bytes, a, error)) return false;
  t.rows = a.rows;
  append_columns(a, "", t);
  mark_non_finite(t);
  return true;
}

// An .npz is a zip archive of .npy files. Its central directory (at the end) lists them; each entry's local header
// says where its bytes start. np.savez stores them uncompressed and may write the sizes in a zip64 extra field.
bool read_npz_table(const std::string& name, const std::string& b, Table& t, std::string& error) {
  const size_t end_record = b.size() >= 22 ? b.rfind(std::string("PK\x05\x06", 4)) : std::string::npos;
  if (end_record == std::string::npos || end_record + 22 > b.size())
    return fail(error, name + " is not a zip archive (an .npz from np.savez)");
  const int entries = int(little_endian(b, end_record + 10, 2));
  size_t at = little_endian(b, end_record + 16, 4);
  for (int e = 0; e < entries; e++) {
    if (at + 46 > b.size() || b.compare(at, 4, std::string("PK\x01\x02", 4)) != 0)
      return fail(error, name + ": the archive's directory is damaged");
    const uint32_t method = little_endian(b, at + 10, 2);
    uint64_t size = little_endian(b, at + 24, 4);
    const size_t name_length = little_endian(b, at + 28, 2), extra_length = little_endian(b, at + 30, 2);
    const size_t comment_length = little_endian(b, at + 32, 2);
    uint64_t local = little_endian(b, at + 42, 4);
    const std::string member = b.substr(at + 46, name_length);
    // zip64: the fields set to 0xFFFFFFFF are in the extra field 0x0001, in the order size, compressed, offset.
    for (size_t x = at + 46 + name_length; x + 4 <= at + 46 + name_length + extra_length;) {
      const uint32_t id = little_endian(b, x, 2), length = little_endian(b, x + 2, 2);
      size_t field = x + 4;
      if (id == 1) {
        if (size == 0xFFFFFFFF) size = little_endian(b, field, 4) | uint64_t(little_endian(b, field + 4, 4)) << 32, field += 8;
        if (little_endian(b, at + 20, 4) == 0xFFFFFFFF) field += 8;
        if (local == 0xFFFFFFFF) local = little_endian(b, field, 4) | uint64_t(little_endian(b, field + 4, 4)) << 32;
      }
      x += 4 + length;
    }
    at += 46 + name_length + extra_length + comment_length;
    if (method != 0)
      return fail(error, name + ": " + member + " is compressed (np.savez_compressed); save with np.savez, or "
                         "as .npy or CSV");
    if (local > b.size() || b.size() - local < 30) return fail(error, name + ": the archive is cut short");
    const size_t data_at = local + 30 + little_endian(b, local + 26, 2) + little_endian(b, local + 28, 2);
    if (data_at > b.size() || size > b.size() - data_at) return fail(error, name + ": the archive is cut short");
    NpyArray a;
    const std::string array_name = ends_with(member, ".npy") ? member.substr(0, member.size() - 4) : member;
    if (!read_npy(name + ": " + member, b.substr(data_at, size), a, error)) return false;
    if (t.columns > 0 && a.rows != t.rows)
      return fail(error, name + ": " + array_name + " has " + std::to_string(a.rows) + " rows, " + t.names[0] +
                             " has " + std::to_string(t.rows) + " (the arrays are columns side by side)");
    t.rows = a.rows;
    if (t.columns + a.columns > kMaxTableColumns)
      return fail(error, name + ": more than " + std::to_string(kMaxTableColumns) + " columns");
    append_columns(a, array_name, t);
  }
  if (t.columns == 0) return fail(error, name + ": the archive holds no arrays");
  mark_non_finite(t);
  return true;
}

}  // namespace

bool read_table(const std::string& name, const std::string& bytes, Table& out, std::string& error) {
  out = Table{};
  if (bytes.empty()) return fail(error, name + " is empty");
  if (bytes.size() > kMaxTableFileBytes) return fail(error, too_large(name, bytes.size()));
  if (ends_with(name, ".npy")) return read_npy_table(name, bytes, out, error);
  if (ends_with(name, ".npz")) return read_npz_table(name, bytes, out, error);
  if (ends_with(name, ".csv") || ends_with(name, ".tsv") || ends_with(name, ".txt"))
    return read_csv(name, bytes, out, error);
  return fail(error, name + ": not a data file this program reads (.csv, .tsv, .txt, .npy or .npz)");
}

std::shared_ptr<const TableFile> read_table_file(const std::string& path) {
  static std::map<std::string, std::pair<std::string, std::shared_ptr<const TableFile>>> kept;
  auto file = std::make_shared<TableFile>();
  file->path = path;
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return file->error = "cannot open " + path, file;
  const std::string stamp = std::to_string(info.st_size) + "@" + std::to_string(info.st_mtime);
  auto found = kept.find(path);
  if (found != kept.end() && found->second.first == stamp) return found->second.second;
  const size_t slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (size_t(info.st_size) > kMaxTableFileBytes) return file->error = too_large(name, size_t(info.st_size)), file;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) return file->error = "cannot read " + path, file;
  const std::string content = bytes.str();
  file->bytes = content.size();
  file->sha256 = sha256_hex(content);
  read_table(name, content, file->table, file->error);
  kept[path] = {stamp, file};
  return file;
}
