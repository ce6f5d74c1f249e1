#include "web/draw/frame_fingerprint.hpp"

#include <cstring>

namespace {

// FNV-1a over 8-byte words (a byte at a time is slower than needed for a few hundred kB a frame). Not
// cryptographic: two different frames share a fingerprint with probability 2^-64.
struct Hash {
  uint64_t h = 1469598103934665603ull;
  void word(uint64_t w) { h = (h ^ w) * 1099511628211ull; }
  void bytes(const void* p, size_t n) {
    const unsigned char* c = static_cast<const unsigned char*>(p);
    for (; n >= 8; c += 8, n -= 8) {
      uint64_t w;
      std::memcpy(&w, c, 8);
      word(w);
    }
    for (; n > 0; c++, n--) word(*c);
  }
  void f(float x) { bytes(&x, sizeof x); }
};

}  // namespace

uint64_t frame_fingerprint(const ImDrawData& data, uint64_t textures_version) {
  Hash h;
  h.word(textures_version);
  h.f(data.DisplayPos.x), h.f(data.DisplayPos.y), h.f(data.DisplaySize.x), h.f(data.DisplaySize.y);
  h.f(data.FramebufferScale.x), h.f(data.FramebufferScale.y);
  for (int l = 0; l < data.CmdListsCount; l++) {
    const ImDrawList& list = *data.CmdLists[l];
    h.word(uint64_t(list.VtxBuffer.Size)), h.bytes(list.VtxBuffer.Data, size_t(list.VtxBuffer.size_in_bytes()));
    h.word(uint64_t(list.IdxBuffer.Size)), h.bytes(list.IdxBuffer.Data, size_t(list.IdxBuffer.size_in_bytes()));
    for (const ImDrawCmd& cmd : list.CmdBuffer) {
      h.f(cmd.ClipRect.x), h.f(cmd.ClipRect.y), h.f(cmd.ClipRect.z), h.f(cmd.ClipRect.w);
      h.word(uint64_t(reinterpret_cast<uintptr_t>(cmd.TextureId)));
      h.word(cmd.VtxOffset), h.word(cmd.IdxOffset), h.word(cmd.ElemCount);
      h.word(uint64_t(reinterpret_cast<uintptr_t>(cmd.UserCallback)));
      h.word(uint64_t(reinterpret_cast<uintptr_t>(cmd.UserCallbackData)));  // web/draw/opaque_fill.cpp: its colour
    }
  }
  return h.h;
}
