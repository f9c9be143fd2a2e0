// The `pincer moves` line protocol: any line gets exactly one line of valid JSON back (an answer
// or {"error": ...}), never a crash.
#include <nlohmann/json.hpp>
#include <string>

#include "cli/support/moves_protocol.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  std::string line(reinterpret_cast<const char*>(data), size);
  line = line.substr(0, line.find('\n'));
  const std::string reply = cli::answer_moves_line(fuzz::game(size & 1), line);
  if (reply.find('\n') != std::string::npos) fuzz::broken("reply spans lines");
  if (!nlohmann::json::accept(reply)) fuzz::broken("reply is not JSON");
  return 0;
}
