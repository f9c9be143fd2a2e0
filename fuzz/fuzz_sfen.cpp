// SFEN parser: never crashes; whatever it accepts prints back to text that parses to the same.
#include <string>

#include "engine/seize/notation.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size == 0) return 0;
  const auto& game = fuzz::game(data[0]);
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  try {
    const seize::Position p = seize::parse_sfen(game.rules(), text);
    const std::string again = seize::to_sfen(p);
    if (!(seize::parse_sfen(game.rules(), again) == p)) fuzz::broken("SFEN round trip");
    p.result();
    seize::MoveList list;
    p.generate(list);
  } catch (const GameError&) {
  }
  return 0;
}
