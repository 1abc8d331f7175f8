// Recursive-descent JSON parser (see json_value.hpp).
#include "tune/json_value.hpp"

#include <cmath>
#include <cstdlib>

#include "core/json.hpp"
#include "tseig/error.hpp"

namespace tseig::tune {

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : s_(text) {}

  JsonValue document() {
    JsonValue v = value(0);
    space();
    if (p_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  // Deep enough for any cache file, shallow enough for any stack.
  static constexpr int max_depth = 64;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorCode::io_error, "JSON: " + what + " at offset " + std::to_string(p_));
  }
  void space() {
    while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' || s_[p_] == '\r'))
      ++p_;
  }
  bool eat(char c) {
    space();
    if (p_ < s_.size() && s_[p_] == c) {
      ++p_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(std::string_view word) {
    if (s_.substr(p_, word.size()) != word) return false;
    p_ += word.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > max_depth) fail("nested too deeply");
    space();
    if (p_ >= s_.size()) fail("unexpected end");
    JsonValue v;
    const char c = s_[p_];
    if (c == '{') {
      ++p_;
      v.kind_ = JsonValue::Kind::object;
      if (eat('}')) return v;
      do {
        space();
        if (p_ >= s_.size() || s_[p_] != '"') fail("expected a member name");
        std::string key = string();
        expect(':');
        v.object_.insert_or_assign(std::move(key), value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++p_;
      v.kind_ = JsonValue::Kind::array;
      if (eat(']')) return v;
      do v.array_.push_back(value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind_ = JsonValue::Kind::string;
      v.string_ = string();
    } else if (literal("true") || literal("false")) {
      v.kind_ = JsonValue::Kind::boolean;
      v.boolean_ = s_[p_ - 1] == 'e' && s_[p_ - 2] == 'u';
    } else if (literal("null")) {
      v.kind_ = JsonValue::Kind::null;
    } else {
      v.kind_ = JsonValue::Kind::number;
      v.number_ = number();
    }
    return v;
  }

  std::string string() {
    ++p_;  // the opening quote
    std::string out;
    while (true) {
      if (p_ >= s_.size()) fail("unterminated string");
      const char c = s_[p_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (p_ >= s_.size()) fail("unterminated escape");
      const char e = s_[p_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (p_ + 4 > s_.size()) fail("short \\u escape");
          unsigned code = 0;
          for (int k = 0; k < 4; ++k) {
            const char h = s_[p_++];
            code <<= 4;
            if (h >= '0' && h <= '9')
              code |= h - '0';
            else if (h >= 'a' && h <= 'f')
              code |= h - 'a' + 10;
            else if (h >= 'A' && h <= 'F')
              code |= h - 'A' + 10;
            else
              fail("bad \\u escape");
          }
          // UTF-8 of a code point in the basic plane.
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  double number() {
    const std::size_t start = p_;
    if (p_ < s_.size() && s_[p_] == '-') ++p_;
    auto digits = [&] {
      const std::size_t from = p_;
      while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
      return p_ > from;
    };
    if (!digits()) fail("expected a value");
    if (p_ < s_.size() && s_[p_] == '.') {
      ++p_;
      if (!digits()) fail("expected digits after '.'");
    }
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
      ++p_;
      if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
      if (!digits()) fail("expected an exponent");
    }
    const std::string token(s_.substr(start, p_ - start));
    const double x = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(x)) fail("number out of range");
    return x;
  }

  std::string_view s_;
  std::size_t p_ = 0;
};

JsonValue JsonValue::parse(std::string_view text) {
  return JsonParser(text).document();
}

const JsonValue* JsonValue::find(const std::string& key) const {
  if (kind_ != Kind::object) return nullptr;
  const auto it = object_.find(key);
  return it == object_.end() ? nullptr : &it->second;
}

std::string JsonValue::string_or(const std::string& key, const std::string& fallback) const {
  const JsonValue* v = find(key);
  return v && v->is(Kind::string) ? v->string_ : fallback;
}

double JsonValue::number_or(const std::string& key, double fallback) const {
  const JsonValue* v = find(key);
  return v && v->is(Kind::number) ? v->number_ : fallback;
}

std::string JsonValue::dump() const {
  switch (kind_) {
    case Kind::null:
      return "null";
    case Kind::boolean:
      return boolean_ ? "true" : "false";
    case Kind::number:
      return json::number(number_);
    case Kind::string:
      return json::string(string_);
    case Kind::array: {
      std::string s = "[";
      for (const JsonValue& v : array_) {
        if (s.size() > 1) s += ',';
        s += v.dump();
      }
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (const auto& [k, v] : object_) {
        if (s.size() > 1) s += ',';
        s += json::string(k) + ":" + v.dump();
      }
      return s + "}";
    }
  }
}

}  // namespace tseig::tune
