#include "engine/task/fashion_mnist.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr uint32_t kImagesMagic = 0x00000803;  // IDX: unsigned bytes, 3 dimensions
constexpr uint32_t kLabelsMagic = 0x00000801;  // IDX: unsigned bytes, 1 dimension
constexpr double kMean = 0.2860, kStd = 0.3530;  // pixel/255 over the 60 000 training images

uint32_t big_endian(const unsigned char* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | uint32_t(p[3]);
}

// An open IDX file: its header checked, `items` = how many whole items the (possibly truncated) file holds.
struct IdxFile {
  std::FILE* f = nullptr;
  long items = 0;
  ~IdxFile() {
    if (f) std::fclose(f);
  }
};

bool open_idx(const std::string& path, bool images, IdxFile& out, std::string& error) {
  out.f = std::fopen(path.c_str(), "rb");
  if (!out.f) return error = "cannot open " + path, false;
  unsigned char header[16];
  const size_t header_size = images ? 16 : 8;
  if (std::fread(header, 1, header_size, out.f) != header_size) return error = path + ": too short", false;
  if (big_endian(header) != (images ? kImagesMagic : kLabelsMagic))
    return error = path + ": not an IDX " + (images ? "image" : "label") + " file", false;
  if (images && (big_endian(header + 8) != 28 || big_endian(header + 12) != 28))
    return error = path + ": images are not 28×28", false;
  std::fseek(out.f, 0, SEEK_END);
  const long item_bytes = images ? kFashionMnistPixels : 1;
  out.items = std::min<long>((std::ftell(out.f) - long(header_size)) / item_bytes, big_endian(header + 4));
  std::fseek(out.f, long(header_size), SEEK_SET);
  return true;
}

struct Split {
  IdxFile images, labels;
  long items() const { return std::min(images.items, labels.items); }
};

bool open_split(const std::string& dir, const char* name, Split& s, std::string& error) {
  const std::string base = dir + "/" + name;
  return open_idx(base + "-images.idx3", true, s.images, error) && open_idx(base + "-labels.idx1", false, s.labels, error);
}

bool read_split(Split& s, int size, Dataset& d, std::string& error) {
  std::vector<unsigned char> pixels(size_t(size) * kFashionMnistPixels);
  std::vector<unsigned char> labels(static_cast<size_t>(size));
  if (std::fread(pixels.data(), 1, pixels.size(), s.images.f) != pixels.size() ||
      std::fread(labels.data(), 1, labels.size(), s.labels.f) != labels.size())
    return error = "Fashion-MNIST: read error", false;
  d = Dataset{size, kFashionMnistPixels, 1, std::vector<double>(pixels.size()), {}, std::vector<int>(size_t(size))};
  for (size_t i = 0; i < pixels.size(); i++) d.x[i] = (pixels[i] / 255.0 - kMean) / kStd;
  for (int i = 0; i < size; i++) {
    if (labels[size_t(i)] >= kFashionMnistClasses) return error = "Fashion-MNIST: a label is not in 0..9", false;
    d.labels[size_t(i)] = labels[size_t(i)];
  }
  return true;
}

const char* kHowToGetIt = " (the build cuts it from Debian's dataset-fashion-mnist: run scripts/setup and rebuild, "
                          "or set MUPLAY_FASHION_MNIST_DIR)";

}  // namespace

FashionMnistFiles probe_fashion_mnist(const std::string& dir) {
  FashionMnistFiles out;
  if (dir.empty()) {
    out.error = "no Fashion-MNIST folder is set in this front end";
    return out;
  }
  Split train, test;
  if (!open_split(dir, "train", train, out.error) || !open_split(dir, "test", test, out.error)) {
    out.error = "Fashion-MNIST data not found: " + out.error + kHowToGetIt;
    return out;
  }
  out.train = int(train.items());
  out.test = int(test.items());
  return out;
}

bool load_fashion_mnist(const std::string& dir, int train_size, int test_size, Dataset& train, Dataset& test,
                        std::string& error) {
  Split tr, te;
  if (!open_split(dir, "train", tr, error) || !open_split(dir, "test", te, error)) return false;
  if (tr.items() < train_size || te.items() < test_size) {
    error = "Fashion-MNIST in " + dir + " holds " + std::to_string(tr.items()) + " train and " +
            std::to_string(te.items()) + " test images, fewer than asked for";
    return false;
  }
  return read_split(tr, train_size, train, error) && read_split(te, test_size, test, error);
}
