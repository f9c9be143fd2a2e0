#include "store/gate_log.h"

#include <stdexcept>

#include "engine/text_format.h"

namespace pincer {
GateLog parse_gate_log(const std::string& text, const std::string& origin) {
  GateLog log;
  TextFormatError error;
  if (!parse_text_format(text, log, error)) {
    throw std::runtime_error(origin + ": damaged gate log (" + error.describe() + ")");
  }
  return log;
}

}  // namespace pincer
