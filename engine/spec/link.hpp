// Share links: an ExperimentSpec as a compact, versioned, URL-safe fragment, and back.
//
//   #s=1.eyJuYW1lIjoi...&r=1      "s=" VERSION "." base64url(JSON of the fields that differ from VERSION's defaults)
//                                 "&r=" the result version (result_files.hpp: kResultVersion) of the build that made it
//
// VERSION is the spec version (spec_migrations.hpp), so a link made by an older build is read with that version's
// defaults and migrated; a link from a newer build is refused with a message saying so. The result version says which
// engine's numbers the link stands for: a link of another result version opens, and its reader can say that the
// numbers may differ (links made before it was written stand for version 1). What else decides the numbers travels
// in the spec: the page pins `backend` before making a link (gpu_device.hpp: resolved_backend), and `precision`
// is written when it is not its version's default. Only fields that differ
// from the defaults are written, which keeps typical links a few hundred characters long without a compression
// library. Decoding never trusts its input: every problem comes back as a message, nothing aborts.
#pragma once
#include <string>

#include "engine/spec/spec.hpp"

// Longer text is refused before decoding. Every valid spec fits several times over (the longest possible one,
// a 4000-character description of escaped characters, encodes to about 34 000 characters).
constexpr size_t kMaxLinkChars = 65536;

// The fragment for `spec`, without the leading '#': "s=1.<data>&r=1".
std::string spec_to_link(const ExperimentSpec& spec);

struct LinkResult : SpecResult {
  int result_version = 1;  // the "&r=" of the link; 1 for links made before links carried it
};
// Reads a fragment (with or without the leading '#'). Errors say what is wrong with the link
// (not a share link, truncated, corrupted, too long, from a newer build) or, for a link that decodes,
// which spec fields are invalid (checked against `limits`), each with its path.
LinkResult spec_from_link(const std::string& fragment, const SpecLimits& limits = {});

// The fields of `doc` whose values differ from `base`, recursing into objects (arrays count as one value).
json::Value fields_differing_from(const json::Value& doc, const json::Value& base);
