// Base64url (RFC 4648 §5: '-' and '_' for '+' and '/', no '=' padding): bytes as URL-safe text, for share links.
#pragma once
#include <string>

std::string base64url_encode(const std::string& bytes);

// Decodes `text` into `out`. On failure returns false and says why in `error` (a bad character and its position,
// or a length no encoder produces, which is what a truncated link usually looks like).
bool base64url_decode(const std::string& text, std::string& out, std::string& error);
