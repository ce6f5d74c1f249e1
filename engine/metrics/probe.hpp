// A metric's instrument on one sweep member: it names its series at set-up ("act_rms/h1", …, "act_rms/f") and
// measures one value per series at every record step, allocating nothing there. The metric table
// (engine/spec/metric_table.hpp) says which probe each metric builds; engine/metrics/probes.hpp lists the probes.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "engine/metrics/record.hpp"

class Probe {
 public:
  explicit Probe(std::vector<std::string> series) : series_(std::move(series)) {}
  virtual ~Probe() = default;
  const std::vector<std::string>& series() const { return series_; }
  // out[i]: the value of series()[i] at this record.
  virtual void measure(Record& r, double* out) = 0;

 private:
  std::vector<std::string> series_;
};

// One series, named `name`, whose value is value(record): most metrics read a number the record already has.
std::unique_ptr<Probe> value_probe(const char* name, double (*value)(Record&));
