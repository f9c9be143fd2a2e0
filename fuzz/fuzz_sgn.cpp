// SGN records: never crash; a record that replays is written back and replays to the same moves.
#include <string>

#include "engine/record.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  fuzz::game(0);  // load the rulesets once, outside the measured paths
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    for (const SgnRecord& record : parse_sgn(text)) {
      try {
        const ReplayedGame g = replay_record(record);
        const std::string again = write_sgn(*g.game, *g.start, g.actions, record.headers);
        const auto back = parse_sgn(again);
        if (back.size() != 1 || replay_record(back[0]).actions != g.actions)
          fuzz::broken("SGN round trip");
      } catch (const GameError&) {
      }
    }
  } catch (const GameError&) {
  }
  return 0;
}
