#include "engine/run/runner_progress.hpp"

#include <cstring>
#include <string>

namespace {

constexpr uint32_t kProgressMagic = 0x6d757031;  // "mup1": the layout below, version 1

class ByteWriter {
 public:
  template <class T>
  void put(T value) { put_array(&value, 1); }
  template <class T>
  void put_array(const T* values, size_t count) {
    const size_t at = bytes_.size();
    bytes_.resize(at + count * sizeof(T));
    if (count) std::memcpy(bytes_.data() + at, values, count * sizeof(T));
  }
  void put_string(const std::string& s) {
    put(uint32_t(s.size()));
    put_array(s.data(), s.size());
  }
  std::vector<uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<uint8_t> bytes_;
};

class ByteReader {
 public:
  ByteReader(const uint8_t* bytes, size_t size) : at_(bytes), end_(bytes + size) {}
  // Past the end every read gives zeros and ok() turns false.
  template <class T>
  T get() {
    T value{};
    get_array(&value, 1);
    return value;
  }
  template <class T>
  void get_array(T* values, size_t count) {
    if (!ok_ || count > size_t(end_ - at_) / sizeof(T)) {
      ok_ = false;
      return;
    }
    if (count) std::memcpy(values, at_, count * sizeof(T));
    at_ += count * sizeof(T);
  }
  std::string get_string() {
    const uint32_t size = get<uint32_t>();
    if (size > size_t(end_ - at_)) ok_ = false;
    std::string s(ok_ ? size : 0, '\0');
    get_array(s.data(), s.size());
    return s;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return at_ == end_; }

 private:
  const uint8_t* at_;
  const uint8_t* end_;
  bool ok_ = true;
};

bool moved(const Member& m, const ProgressCursor& c, size_t i) {
  return m.steps_done() != c.steps_sent[i] || int(m.status()) != c.status_sent[i] ||
         int(m.recorded_steps().size()) != c.records_sent[i];
}

bool sends_parameters(const Member& m, const ProgressCursor& c, size_t i, bool with_parameters) {
  return (with_parameters || m.done()) && m.steps_done() != c.params_sent[i];
}

// One member: its state, the records from `first_record` on (step, then one value per series), its parameters if
// `with_parameters`.
void put_member(ByteWriter& w, const Member& m, int first_record, bool with_parameters) {
  w.put(m.steps_done());
  w.put(int32_t(m.status()));
  w.put(m.diverged_at());
  w.put(uint8_t(m.reached_stop_loss()));
  w.put_string(m.error());
  const int records = int(m.recorded_steps().size());
  w.put(int32_t(records - first_record));
  w.put(uint32_t(m.series().size()));
  for (int r = first_record; r < records; r++) {
    w.put(double(m.recorded_steps()[size_t(r)]));
    for (const Series& s : m.series()) w.put(s.values[size_t(r)]);
  }
  w.put(uint8_t(with_parameters));
  if (!with_parameters) return;
  w.put(uint64_t(m.parameters().size()));
  w.put_array(m.parameters().data(), m.parameters().size());
}

// One member's part of a message, read whole before anything is applied.
struct MemberUpdate {
  Member* member = nullptr;
  int steps = 0, diverged_at = -1;
  RunStatus status = RunStatus::running;
  bool reached_stop_loss = false;
  std::string error;
  std::vector<double> records;  // per record: its step, then one value per series
  std::vector<double> params;   // empty: not sent
};

// Reads the part of `m`. Returns "" or why it does not fit.
std::string read_member(ByteReader& r, Member& m, MemberUpdate& u) {
  u.member = &m;
  u.steps = r.get<int>();
  u.status = RunStatus(r.get<int32_t>());
  u.diverged_at = r.get<int>();
  u.reached_stop_loss = r.get<uint8_t>() != 0;
  u.error = r.get_string();
  const int32_t new_records = r.get<int32_t>();
  if (r.get<uint32_t>() != m.series().size()) return "another member's series";
  if (new_records < 0 || new_records > (1 << 24)) return "a bad record count";
  u.records.resize(size_t(new_records) * (m.series().size() + 1));
  r.get_array(u.records.data(), u.records.size());
  if (r.get<uint8_t>()) {
    if (r.get<uint64_t>() != m.parameters().size()) return "another model's size";
    u.params.resize(m.parameters().size());
    r.get_array(u.params.data(), u.params.size());
  }
  return r.ok() ? "" : "truncated";
}

void apply_member(const MemberUpdate& u) {
  Member& m = *u.member;
  const size_t width = m.series().size() + 1;
  for (size_t at = 0; at < u.records.size(); at += width) m.adopt_record(int(u.records[at]), u.records.data() + at + 1);
  if (!u.params.empty()) m.adopt_parameters(u.params.data());
  m.adopt_state(u.steps, u.status, u.diverged_at, u.reached_stop_loss, u.error);
}

}  // namespace

std::vector<uint8_t> encode_progress(const Runner& runner, ProgressCursor& cursor, bool with_parameters) {
  const auto& members = runner.members();
  if (cursor.steps_sent.size() != members.size()) {
    cursor = ProgressCursor{};
    cursor.steps_sent.assign(members.size(), -1);
    cursor.records_sent.assign(members.size(), 0);
    cursor.status_sent.assign(members.size(), -1);
    cursor.params_sent.assign(members.size(), -1);
  }
  // A shard speaks for its own members only: the others never move here, and their state at step 0 must not reach a
  // replica that another shard's messages have moved on.
  const auto included = [&](size_t i) {
    return runner.in_shard(int(i)) &&
           (moved(*members[i], cursor, i) || sends_parameters(*members[i], cursor, i, with_parameters));
  };
  ByteWriter w;
  uint32_t count = 0;
  for (size_t i = 0; i < members.size(); i++) count += included(i);
  if (count == 0) return {};
  w.put(kProgressMagic);
  w.put(int32_t(runner.active_run()));
  w.put(uint32_t(members.size()));
  w.put(count);
  for (size_t i = 0; i < members.size(); i++) {
    const Member& m = *members[i];
    if (!included(i)) continue;
    const bool params = sends_parameters(m, cursor, i, with_parameters);
    w.put(uint32_t(i));
    put_member(w, m, cursor.records_sent[i], params);
    if (params) cursor.params_sent[i] = m.steps_done();
    cursor.steps_sent[i] = m.steps_done();
    cursor.records_sent[i] = int(m.recorded_steps().size());
    cursor.status_sent[i] = int(m.status());
  }
  return w.take();
}

std::string apply_progress(Runner& replica, const uint8_t* bytes, size_t size) {
  ByteReader r(bytes, size);
  if (r.get<uint32_t>() != kProgressMagic) return "progress message: unknown format";
  const int active_run = r.get<int32_t>();
  const auto& members = replica.members();
  if (r.get<uint32_t>() != members.size()) return "progress message: another sweep";
  const uint32_t count = r.get<uint32_t>();
  if (count > members.size()) return "progress message: more members than the sweep has";
  std::vector<MemberUpdate> updates(count);
  for (MemberUpdate& u : updates) {
    const uint32_t i = r.get<uint32_t>();
    if (i >= members.size()) return "progress message: no member " + std::to_string(i);
    const std::string why = read_member(r, *members[i], u);
    if (!why.empty()) return "progress message: member " + std::to_string(i) + ": " + why;
  }
  if (!r.at_end()) return "progress message: trailing bytes";
  for (const MemberUpdate& u : updates) apply_member(u);
  // A runner's step count is the sum of its members' (each step adds what it moved a member by), so the replica's
  // is too, whichever runners (shards, Runner::train_shard) the messages came from.
  long total_steps = 0;
  for (const auto& m : members) total_steps += m->steps_done();
  replica.adopt_progress(total_steps, active_run);
  return "";
}
