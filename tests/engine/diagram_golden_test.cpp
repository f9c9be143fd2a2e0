// The board diagrams (`pincer show`, State::to_diagram) of corners, dice and Seega, byte for byte:
// the start and positions along a game (each ply the first legal move, then the last), against
// tests/engine/golden/diagrams.txt. A mismatch writes what was drawn beside the test binary.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/atomic_file.h"
#include "engine/registry.h"

namespace pincer {
namespace {

std::string source_dir() {
  const char* s = std::getenv("PINCER_SOURCE_DIR");
  return s ? s : ".";
}

// Diagrams at plies 0, every `every` plies up to `plies`, and the end if the game ends sooner.
std::string diagrams(const std::string& rules, int plies, int every) {
  const GamePtr game = load_game(rules);
  auto state = game->initial_state();
  std::ostringstream out;
  std::vector<Action> legal;
  for (int ply = 0; ply <= plies; ++ply) {
    const bool over = state->outcome().over;
    if (ply % every == 0 || over) {
      out << "== " << rules << " ply " << ply << "\n" << state->to_diagram();
    }
    if (over) break;
    state->legal_actions(legal);
    state->apply(ply % 2 ? legal.back() : legal.front());
  }
  return out.str();
}

TEST(Diagrams, CornersDiceAndSeegaAreDrawnAsBefore) {
  std::string all;
  for (const char* rules : {"corners", "dice-6x6", "dice-7x7-scored", "dice-7x7-timed",
                            "dice-8x8-promotion-scored", "seega-5x5", "seega-7x7"}) {
    all += diagrams(rules, 60, 15);
  }
  const std::string golden = read_whole_file(source_dir() + "/tests/engine/golden/diagrams.txt");
  if (all != golden) {
    atomic_write_file("diagrams.actual.txt", all);
    FAIL() << "diagrams differ from tests/engine/golden/diagrams.txt (see diagrams.actual.txt)";
  }
}

}  // namespace
}  // namespace pincer
