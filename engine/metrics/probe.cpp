#include "engine/metrics/probe.hpp"

namespace {

class ValueProbe : public Probe {
 public:
  ValueProbe(const char* name, double (*value)(Record&)) : Probe({name}), value_(value) {}
  void measure(Record& r, double* out) override { out[0] = value_(r); }

 private:
  double (*value_)(Record&);
};

}  // namespace

std::unique_ptr<Probe> value_probe(const char* name, double (*value)(Record&)) {
  return std::make_unique<ValueProbe>(name, value);
}
