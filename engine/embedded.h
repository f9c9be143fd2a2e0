// Text files compiled into the binary (see cmake/embed.cmake).
#pragma once

#include <string>
#include <vector>

namespace pincer {

struct EmbeddedFile {
  const char* name;  // file stem, e.g. "seize-v0"
  const char* text;
};

const std::vector<EmbeddedFile>& embedded_rulesets();

}  // namespace pincer
