#include "engine/base/base64url.hpp"

namespace {

const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The 6-bit value of a base64url character, or -1.
int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

std::string shown(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  const char* hex = "0123456789abcdef";
  return std::string("byte 0x") + hex[u >> 4] + hex[u & 15];
}

}  // namespace

std::string base64url_encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  unsigned buffer = 0;
  int bits = 0;
  for (unsigned char b : bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += kAlphabet[(buffer >> bits) & 63];
    }
  }
  if (bits > 0) out += kAlphabet[(buffer << (6 - bits)) & 63];
  return out;
}

bool base64url_decode(const std::string& text, std::string& out, std::string& error) {
  out.clear();
  // 4 characters carry 3 bytes; a remainder of 1 character carries no whole byte, so no encoder writes it.
  if (text.size() % 4 == 1) {
    error = "is " + std::to_string(text.size()) + " characters long, which no encoder writes (truncated?)";
    return false;
  }
  out.reserve(text.size() / 4 * 3 + 2);
  unsigned buffer = 0;
  int bits = 0;
  for (size_t i = 0; i < text.size(); i++) {
    const int v = sextet(text[i]);
    if (v < 0) {
      error = "has " + shown(text[i]) + " at character " + std::to_string(i + 1) + ", which is not base64url";
      return false;
    }
    buffer = (buffer << 6) | unsigned(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((buffer >> bits) & 0xff);
    }
  }
  return true;
}
