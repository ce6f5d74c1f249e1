// One table of names per enum, declared beside the enum: its *_name() function, the spec's JSON reader and writer
// and the spec editor's combo boxes all read it, so a new value is one new row. Error messages and combo boxes list
// the names in the table's order.
//
//   enum class OptimizerKind { sgd, adam };
//   inline constexpr EnumName<OptimizerKind> kOptimizerNames[] = {
//       {OptimizerKind::sgd, "sgd"},
//       {OptimizerKind::adam, "adam"},
//   };
//   inline const char* optimizer_name(OptimizerKind k) { return enum_name(kOptimizerNames, k); }
#pragma once
#include <cstddef>
#include <string>
#include <vector>

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value`; "?" for a value the table lacks.
template <class E, size_t N>
constexpr const char* enum_name(const EnumName<E> (&table)[N], E value) {
  for (const EnumName<E>& row : table)
    if (row.value == value) return row.name;
  return "?";
}

// The row of `value`, to build the table of a field that allows only some of an enum's values.
template <class E, size_t N>
constexpr EnumName<E> enum_row(const EnumName<E> (&table)[N], E value) {
  return {value, enum_name(table, value)};
}

// Sets `out` to the value called `name`; false, with `out` unchanged, when no row has that name.
template <class E, size_t N>
bool enum_value(const EnumName<E> (&table)[N], const std::string& name, E& out) {
  for (const EnumName<E>& row : table)
    if (name == row.name) {
      out = row.value;
      return true;
    }
  return false;
}

template <class E, size_t N>
std::vector<std::string> enum_names(const EnumName<E> (&table)[N]) {
  std::vector<std::string> out;
  for (const EnumName<E>& row : table) out.push_back(row.name);
  return out;
}
