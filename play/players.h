// The built-in player kinds and what they share: a seeded generator and the game knowledge
// (the game's Heuristic, or a generic fallback built on points and mobility).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/heuristic.h"
#include "play/player.h"

namespace pincer {

// random: a uniformly random legal move.
std::unique_ptr<Player> make_random_player(const GamePtr& game, const PlayerSpec& spec,
                                           uint64_t seed);
// greedy: a move that wins at once if there is one, else one capturing the most points; ties
// at random.
std::unique_ptr<Player> make_greedy_player(const GamePtr& game, const PlayerSpec& spec,
                                           uint64_t seed);
// alphabeta:depth=D | time=SECONDS [,hash=MB]: play/alphabeta.h.
std::unique_ptr<Player> make_alphabeta_player(const GamePtr& game, const PlayerSpec& spec,
                                              uint64_t seed);
// mcts:sims=N [,c=C,rollout=PLIES,time=SECONDS]: play/uct.h.
std::unique_ptr<Player> make_uct_player(const GamePtr& game, const PlayerSpec& spec, uint64_t seed);

// human: moves typed on standard input (any accepted form; "moves" lists them).
std::unique_ptr<Player> make_human_player(const GamePtr& game, const PlayerSpec& spec,
                                          uint64_t seed);

// The game's own heuristic, or one for any game: points (State::points) and the mobility of the
// side to move; captures are found by playing the action and comparing points and captures.
const Heuristic& heuristic_for(const Game& game);

// splitmix64 step: a well mixed 64-bit value from any input (seeds for games and players).
uint64_t mix_seed(uint64_t a, uint64_t b = 0);

// Small fast generator (xoshiro256**), seeded through splitmix64.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  uint64_t next();
  // Uniform in [0, n), n > 0.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>((next() >> 32) * n >> 32); }
  // Uniform in [0, 1).
  double uniform() { return (next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_[4];
};

}  // namespace pincer
