// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the content hash by which a spec names a data
// file it trains on (task.table.sha256), so a link or an export can tell the right file from another one of that name.
#pragma once
#include <string>

std::string sha256_hex(const std::string& bytes);
