#pragma once
// A small JSON reader for the tuning cache: the whole document parsed into a tree of
// values. Strict (RFC 8259 minus \u surrogate pairs, which the cache never writes); a
// malformed text throws Error(io_error) with the offset, never reads out of bounds, and
// nesting is limited so a hostile file cannot exhaust the stack.
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tseig::tune {

class JsonValue {
 public:
  enum class Kind { null, boolean, number, string, array, object };

  /// Throws Error(io_error) when `text` is not one JSON value (surrounding space allowed).
  static JsonValue parse(std::string_view text);

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  double number() const { return number_; }
  bool boolean() const { return boolean_; }
  const std::string& string() const { return string_; }
  const std::vector<JsonValue>& array() const { return array_; }
  const std::map<std::string, JsonValue>& object() const { return object_; }

  /// The member `key` of an object, or nullptr (also when this is not an object).
  const JsonValue* find(const std::string& key) const;
  /// find(key) as a string / number when it is one; `fallback` otherwise.
  std::string string_or(const std::string& key, const std::string& fallback) const;
  double number_or(const std::string& key, double fallback) const;
  /// Compact JSON text of this value (parse(dump()) gives it back).
  std::string dump() const;

 private:
  friend class JsonParser;
  Kind kind_ = Kind::null;
  double number_ = 0;
  bool boolean_ = false;
  std::string string_;
  std::vector<JsonValue> array_;
  std::map<std::string, JsonValue> object_;
};

}  // namespace tseig::tune
