// The table task: a data set the user brings (engine/task/table_file.hpp, table_task.hpp), on the CSV files that
// Debian's python3-sklearn ships (iris, wine, breast cancer) and on small files written here, including every kind of
// bad input, each with the message the user reads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "engine/base/sha256.hpp"
#include "engine/run/runner.hpp"
#include "engine/spec/spec.hpp"
#include "engine/task/table_task.hpp"
#include "engine/task/task.hpp"

namespace {

const std::string kSklearn = MUPLAY_SKLEARN_DATA_DIR;

std::string read_error(const std::string& name, const std::string& bytes) {
  Table t;
  std::string error;
  EXPECT_FALSE(read_table(name, bytes, t, error)) << name;
  return error;
}

Table read_ok(const std::string& name, const std::string& bytes) {
  Table t;
  std::string error;
  EXPECT_TRUE(read_table(name, bytes, t, error)) << error;
  return t;
}

// A spec of a table task on `file` in `dir`, parsed with the table read from there.
SpecResult table_spec(const std::string& dir, const std::string& table_json, int input_dim, int train, int test) {
  const std::string text = R"({"version": 1, "task": {"kind": "table", "input_dim": )" + std::to_string(input_dim) +
                           R"(, "train_size": )" + std::to_string(train) + R"(, "test_size": )" +
                           std::to_string(test) + R"(, "table": )" + table_json +
                           R"(}, "model": {"widths": [32]}, "schedule": {"steps": 10}})";
  SpecLimits limits;
  limits.table_dir = dir;
  return parse_spec_text(text, limits);
}

std::string joined(const std::vector<std::string>& errors) {
  std::string all;
  for (const std::string& e : errors) all += e + "\n";
  return all;
}

// A file in a fresh folder of its own.
std::string write_file(const std::string& name, const std::string& bytes) {
  char dir[] = "/tmp/muplay-table-XXXXXX";
  EXPECT_NE(mkdtemp(dir), nullptr);
  std::ofstream(std::string(dir) + "/" + name, std::ios::binary) << bytes;
  return dir;
}

// A .npy file's bytes: version 1.0 header, padded to 64 bytes, then the data.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data, bool fortran = false) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += char(header.size() & 0xff);
  out += char(header.size() >> 8);
  return out + header + data;
}

template <class T>
std::string raw(std::initializer_list<T> values) {
  std::string out;
  for (T v : values) out.append(reinterpret_cast<const char*>(&v), sizeof v);
  return out;
}

}  // namespace

TEST(Sha256, KnownVectors) {  // FIPS 180-4's examples
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(TableFile, ReadsScikitLearnsCsvFiles) {
  struct Case {
    const char* file;
    int rows, columns, classes;
  };
  for (const Case& c : {Case{"iris.csv", 150, 5, 3}, Case{"wine_data.csv", 178, 14, 3},
                        Case{"breast_cancer.csv", 569, 31, 2}}) {
    const auto f = read_table_file(kSklearn + "/" + c.file);
    ASSERT_EQ(f->error, "") << c.file << " (apt-get install python3-sklearn, as scripts/setup does)";
    EXPECT_EQ(f->table.rows, c.rows) << c.file;
    EXPECT_EQ(f->table.columns, c.columns) << c.file;
    // scikit-learn's first line ("150,4,setosa,...") is not a row: skipped, and said so
    EXPECT_NE(f->table.note.find("skipped"), std::string::npos) << c.file;
    std::set<double> labels;
    for (int r = 0; r < f->table.rows; r++) labels.insert(f->table.values[size_t(r * c.columns + c.columns - 1)]);
    EXPECT_EQ(int(labels.size()), c.classes) << c.file;
  }
}

TEST(TableFile, CsvDialects) {
  Table t = read_ok("a.csv", "\xEF\xBB\xBFx,\"y, the target\",label\r\n1,2.5,a\r\n# a comment\r\n\r\n3,-4e-1,b\r\n");
  ASSERT_EQ(t.rows, 2);
  EXPECT_EQ(t.names, (std::vector<std::string>{"x", "y, the target", "label"}));
  EXPECT_EQ(t.values[4], -0.4);
  EXPECT_EQ(t.problem[0], "");
  EXPECT_EQ(t.problem[2], "line 2: \"a\" is not a number");
  EXPECT_EQ(t.text[2], (std::vector<std::string>{"a", "b"}));
  // a column that turns to text keeps its earlier cells as written, not as the numbers they were read as
  t = read_ok("c.csv", "1,1.0\n2,0.10\n3,b\n");
  EXPECT_EQ(t.text[1], (std::vector<std::string>{"1.0", "0.10", "b"}));
  for (const char* text : {"1;2\n3;4\n", "1\t2\n3\t4\n", "1  2\n 3 4\n"}) {
    t = read_ok("b.tsv", text);
    EXPECT_EQ(t.columns, 2) << text;
    EXPECT_EQ(t.values, (std::vector<double>{1, 2, 3, 4})) << text;
    EXPECT_EQ(t.names[1], "column 1");
  }
}

TEST(TableFile, NumpyArrays) {
  Table t = read_ok("x.npy", npy("<f8", "(2, 3)", raw<double>({1, 2, 3, 4, 5, 6})));
  EXPECT_EQ(t.rows, 2);
  EXPECT_EQ(t.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  t = read_ok("x.npy", npy("<f8", "(2, 3)", raw<double>({1, 4, 2, 5, 3, 6}), /*fortran=*/true));
  EXPECT_EQ(t.values, (std::vector<double>{1, 2, 3, 4, 5, 6}));
  t = read_ok("y.npy", npy("<i4", "(3,)", raw<int32_t>({-1, 0, 7})));
  EXPECT_EQ(t.columns, 1);
  EXPECT_EQ(t.values, (std::vector<double>{-1, 0, 7}));
  t = read_ok("z.npy", npy("<f4", "(2,)", raw<float>({0.1f, NAN})));
  EXPECT_EQ(t.values[0], double(0.1f));
  EXPECT_EQ(t.problem[0], "row 1: NaN is not a finite number");
  t = read_ok("b.npy", npy("|b1", "(2,)", std::string("\x01\x00", 2)));
  EXPECT_EQ(t.values, (std::vector<double>{1, 0}));
}

// Every bad file the issue lists, each refused with what is wrong and where.
TEST(TableFile, BadFilesSayWhatAndWhere) {
  EXPECT_EQ(read_error("e.csv", ""), "e.csv is empty");
  EXPECT_EQ(read_error("h.csv", "a,b,c\n"), "h.csv has a header line and no rows of numbers");
  EXPECT_EQ(read_error("r.csv", "a,b\n1,2\n3,4\n5\n"), "r.csv line 4: 1 cells, line 2 has 2");
  EXPECT_EQ(read_error("q.csv", "1,\"2\n"), "q.csv line 1: a quote is not closed");
  EXPECT_EQ(read_error("bin.csv", std::string("PK\x03\x04\x00\x01", 6)),
            "bin.csv is not a text file (byte 0x00 at offset 4): a CSV must be text; a NumPy array must be named "
            ".npy or .npz");
  EXPECT_EQ(read_error("data.xlsx", "1,2\n"), "data.xlsx: not a data file this program reads (.csv, .tsv, .txt, .npy "
                                              "or .npz)");
  std::string wide;
  for (int c = 0; c <= kMaxTableColumns; c++) wide += c ? ",1" : "1";
  EXPECT_EQ(read_error("w.csv", wide + "\n"), "w.csv line 1: 1025 columns, more than 1024");
  std::string tall;
  for (int r = 0; r <= kMaxTableRows; r++) tall += "1,2\n";
  EXPECT_EQ(read_error("t.csv", tall), "t.csv: more than 100000 rows");
  EXPECT_EQ(read_error("u.npy", npy("<U5", "(2,)", std::string(40, 'a'))),
            "u.npy: dtype '<U5' is not supported (float64, float32, integers or bool, little-endian)");
  EXPECT_EQ(read_error("be.npy", npy(">f8", "(1,)", std::string(8, '\0'))),
            "be.npy: dtype '>f8' is not supported (float64, float32, integers or bool, little-endian)");
  EXPECT_EQ(read_error("c.npy", npy("<f8", "(2, 2, 2)", std::string(64, '\0'))),
            "c.npy: shape (2, 2, 2) is not supported (a 1-D or 2-D array: reshape to (rows, columns))");
  EXPECT_EQ(read_error("s.npy", npy("<f8", "(4,)", std::string(16, '\0'))), "s.npy: 2 values, shape (4,) needs 4");
  EXPECT_EQ(read_error("n.npy", "1,2\n"), "n.npy is not a NumPy .npy file");
}

// A 200 MB file is refused by its size, before a byte of it is read.
TEST(TableFile, RefusesAHugeFileBeforeReadingIt) {
  const std::string dir = write_file("huge.csv", "");
  ASSERT_EQ(truncate((dir + "/huge.csv").c_str(), 200 << 20), 0);
  const auto f = read_table_file(dir + "/huge.csv");
  EXPECT_EQ(f->error, "huge.csv: 209715200 bytes, more than the limit of 33554432 (32 MiB)");
  EXPECT_EQ(f->bytes, 0u);
}

TEST(TableTask, SplitsStandardizesAndNamesClasses) {
  const std::string dir = write_file("flowers.csv", "a,b,kind\n1,10,rose\n2,20,tulip\n3,30,rose\n4,40,iris\n"
                                                    "5,50,tulip\n6,60,rose\n");
  const SpecResult r = table_spec(dir, R"({"file": "flowers.csv", "type": "classification"})", 2, 4, 2);
  ASSERT_TRUE(r.ok()) << joined(r.errors);
  EXPECT_EQ(r.spec.task.table.sha256, sha256_hex("a,b,kind\n1,10,rose\n2,20,tulip\n3,30,rose\n4,40,iris\n"
                                                 "5,50,tulip\n6,60,rose\n"));
  EXPECT_EQ(table_classes(r.spec.task), (std::vector<std::string>{"iris", "rose", "tulip"}));
  const TaskData d = make_task(r.spec.task);
  EXPECT_TRUE(d.classification);
  EXPECT_EQ(d.outputs, 3);
  // every row once, train then test; inputs standardized on the train rows
  std::multiset<double> seen;
  double mean = 0, square = 0;
  for (const Dataset* set : {&d.train, &d.test})
    for (int i = 0; i < set->size; i++) {
      const double x = set->x[size_t(2 * i)], y = set->x[size_t(2 * i + 1)];
      EXPECT_NEAR(x, y, 1e-12);  // b = 10 a: the same after scaling
      if (set == &d.train) mean += x / 4, square += x * x / 4;
      seen.insert(set->labels[size_t(i)]);
    }
  EXPECT_NEAR(mean, 0, 1e-12);
  EXPECT_NEAR(square, 1, 1e-12);
  EXPECT_EQ(seen, (std::multiset<double>{0, 1, 1, 1, 2, 2}));
}

// table_classes and table_class_counts keep their answers by the files' contents and the column: files, or columns,
// asked in turn each get their own classes, and a file rewritten under the same name gets its new ones.
TEST(TableTask, ClassNamesFollowTheFileAndTheColumn) {
  const std::string dir = write_file("pets.csv", "a,kind,size\n1,cat,s\n2,dog,m\n3,cat,l\n4,dog,s\n");
  const std::string other = write_file("pets.csv", "a,kind,size\n1,owl,s\n2,emu,s\n3,owl,s\n4,yak,m\n");
  const std::string kind = R"({"file": "pets.csv", "type": "classification", "inputs": [0], "targets": [1]})";
  const std::string size = R"({"file": "pets.csv", "type": "classification", "inputs": [0], "targets": [2]})";
  for (int round = 0; round < 2; round++) {
    EXPECT_EQ(table_classes(table_spec(dir, kind, 1, 3, 1).spec.task), (std::vector<std::string>{"cat", "dog"}));
    EXPECT_EQ(table_classes(table_spec(other, kind, 1, 3, 1).spec.task),
              (std::vector<std::string>{"emu", "owl", "yak"}));
    EXPECT_EQ(table_class_counts(table_spec(other, kind, 1, 3, 1).spec.task), (std::vector<int>{1, 2, 1}));
    EXPECT_EQ(table_classes(table_spec(dir, size, 1, 3, 1).spec.task), (std::vector<std::string>{"l", "m", "s"}));
  }
  // another size (read_table_file keeps a file while its size and modification time stay the same)
  std::ofstream(dir + "/pets.csv", std::ios::binary) << "a,kind,size\n1,ant,s\n2,bee,m\n3,ant,l\n4,bees,s\n";
  EXPECT_EQ(table_classes(table_spec(dir, kind, 1, 3, 1).spec.task), (std::vector<std::string>{"ant", "bee", "bees"}));
}

// The spec's errors about a table: each names the field, the file and the column or row.
TEST(TableTask, SpecErrorsNameTheFieldAndTheColumn) {
  const std::string kData = "x,y,name,one\n1,2,a,5\n3,4,b,5\n5,nan,c,5\n";
  const std::string dir = write_file("d.csv", kData);
  auto errors = [&](const std::string& table, int input_dim = 1, int train = 2, int test = 1) {
    return joined(table_spec(dir, table, input_dim, train, test).errors);
  };
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [1]})"),
            "task.table.targets[0]: d.csv column 1 (\"y\"), line 4: \"nan\" is not a finite number\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [2], "targets": [0]})"),
            "task.table.inputs[0]: d.csv column 2 (\"name\"), line 2: \"a\" is not a number\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [7]})"),
            "task.table.targets[0]: column 7 is past the 4 columns of d.csv (columns count from 0)\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [3], "type": "classification"})"),
            "task.table.targets: d.csv column 3 (\"one\") holds a single class: nothing to classify\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [2], "type": "classification"})", 2),
            "task.input_dim: 2 is not the 1 input columns of d.csv\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [2], "type": "classification"})", 1, 3, 1),
            "task.test_size: train_size + test_size = 4 is more than the 3 rows of d.csv\n");
  EXPECT_EQ(errors(R"({"file": "missing.csv"})"), "task.table.file: cannot open " + dir + "/missing.csv\n");
  EXPECT_EQ(errors(R"({"file": "d.csv", "inputs": [0], "targets": [2], "type": "classification", "sha256": )"
                   R"("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "bytes": 99})"),
            "task.table.sha256: the spec names d.csv of 99 bytes (sha256 0123456789ab…), the file given is " + dir +
                "/d.csv of 39 bytes (sha256 " + sha256_hex(kData).substr(0, 12) + "…): not the same data\n");
  // An array's NaN names no class (a CSV's text can).
  const std::string npy_dir =
      write_file("labels.npy", npy("<f8", "(3, 2)", raw<double>({1, 0, 2, NAN, 3, 1})));
  EXPECT_EQ(joined(table_spec(npy_dir, R"({"file": "labels.npy", "type": "classification"})", 1, 2, 1).errors),
            "task.table.targets[0]: labels.npy column 1 (\"column 1\"), row 1: NaN is not a finite number\n");
  EXPECT_EQ(joined(parse_spec_text(R"({"version": 1, "task": {"table": {"file": "d.csv"}}})").errors),
            "task.table.file: only for task.kind \"table\"\n");
}

// A separate test file: the same columns, its own rows in its order, classes from both files.
TEST(TableTask, ASeparateTestFile) {
  const std::string dir = write_file("train.csv", "a,kind\n1,x\n2,y\n3,x\n");
  std::ofstream(dir + "/test.csv") << "a,kind\n7,z\n8,x\n";
  std::ofstream(dir + "/narrow.csv") << "a\n7\n";
  const SpecResult r =
      table_spec(dir, R"({"file": "train.csv", "test_file": "test.csv", "type": "classification"})", 1, 3, 2);
  ASSERT_TRUE(r.ok()) << joined(r.errors);
  EXPECT_EQ(r.spec.task.table.test_sha256, sha256_hex("a,kind\n7,z\n8,x\n"));
  EXPECT_EQ(table_classes(r.spec.task), (std::vector<std::string>{"x", "y", "z"}));
  const TaskData d = make_task(r.spec.task);
  EXPECT_EQ(d.outputs, 3);
  EXPECT_EQ(d.test.labels, (std::vector<int>{2, 0}));  // the test file's rows, in order
  EXPECT_NEAR(d.test.x[0], (7 - 2) / std::sqrt(2.0 / 3), 1e-12);  // scaled by the train rows' mean and deviation
  EXPECT_EQ(joined(table_spec(dir, R"({"file": "train.csv", "test_file": "test.csv", "type": "classification"})", 1,
                              3, 3).errors),
            "task.test_size: 3 is more than the 2 rows of test.csv\n");
  EXPECT_EQ(joined(table_spec(dir, R"({"file": "train.csv", "test_file": "narrow.csv"})", 1, 3, 1).errors),
            "task.table.test_file: narrow.csv has 1 columns, train.csv has 2\n");
  EXPECT_EQ(joined(table_spec(dir, R"({"file": "train.csv", "test_file": "gone.csv"})", 1, 3, 1).errors),
            "task.table.test_file: cannot open " + dir + "/gone.csv\n");
  EXPECT_TRUE(table_file_missing(table_spec(dir, R"({"file": "train.csv", "test_file": "gone.csv"})", 1, 3, 1).errors));
}

// A real data set learns: iris, 120 train and 30 test rows (split by task.seed 0), an MLP 4-32-3 under muP with Adam.
TEST(TableTask, IrisIsLearned) {
  const SpecResult r = table_spec(kSklearn, R"({"file": "iris.csv", "type": "classification"})", 4, 120, 30);
  ASSERT_TRUE(r.ok()) << joined(r.errors);
  ExperimentSpec s = r.spec;
  s.parametrization.preset = Preset::mup;
  s.optimizer.kind = OptimizerKind::adam;
  s.optimizer.lr = 0.1;
  s.schedule.steps = 200;
  s.schedule.record_every = 200;
  s.metrics = {"train_loss", "test_accuracy"};
  Runner runner(s);
  while (runner.step()) {}
  const double accuracy = runner.members()[0]->find_series("test_accuracy")->values.back();
  std::printf("  iris, seed 0: test accuracy %.3f after 200 Adam steps\n", accuracy);
  EXPECT_GE(accuracy, 0.85);  // chance is 1/3; scikit-learn's logistic regression on this split: 28 of 30
}
