// Binary and base64 positions: never crash; what decodes encodes back to the same bytes.
#include <string>
#include <vector>

#include "engine/seize/notation.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size == 0) return 0;
  const auto& game = fuzz::game(data[0]);
  const std::vector<uint8_t> bytes(data + 1, data + size);
  try {
    const seize::Position p = seize::from_binary(game.rules(), bytes);
    if (seize::to_binary(p) != bytes) fuzz::broken("binary round trip");
  } catch (const GameError&) {
  }
  try {
    const std::string text(bytes.begin(), bytes.end());
    const seize::Position p = seize::from_base64(game.rules(), text);
    if (seize::to_base64(p) != text) fuzz::broken("base64 round trip");
  } catch (const GameError&) {
  }
  return 0;
}
