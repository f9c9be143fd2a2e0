// Move text: the first bytes pick a ruleset and a position reached by playing moves chosen by
// the input; the rest is parsed as a move. Whatever parses is legal, and its short and long
// forms parse back to the same move.
#include <string>

#include "engine/seize/notation.h"
#include "fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pincer;
  if (size < 2) return 0;
  const auto& game = fuzz::game(data[0]);
  seize::Position p = seize::Position::start(game.rules());
  const size_t plies = data[1] % 16;
  size_t i = 2;
  for (size_t k = 0; k < plies && i < size && !p.result().over(); ++k, ++i) {
    seize::MoveList list;
    p.generate(list);
    p.apply(list.moves[data[i] % list.size]);
  }
  if (p.result().over()) return 0;
  const std::string text(reinterpret_cast<const char*>(data + i), size - i);
  try {
    const seize::Move m = seize::parse_move(p, text);
    seize::MoveList list;
    p.generate(list);
    bool legal = false;
    for (const seize::Move& x : list) legal |= x == m;
    if (!legal) fuzz::broken("parsed an illegal move");
    if (!(seize::parse_move(p, seize::short_move(p, m)) == m))
      fuzz::broken("short form round trip");
    if (!(seize::parse_move(p, seize::long_move(m)) == m)) fuzz::broken("long form round trip");
  } catch (const GameError&) {
  }
  return 0;
}
