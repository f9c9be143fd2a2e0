// The built-in player kinds and what they share: a seeded generator and the game knowledge
// (the game's Heuristic, or a generic fallback built on points and mobility).
#pragma once

#include <cstdint>
#include <memory>

#include "engine/heuristic.h"
#include "engine/random.h"  // mix_seed and Rng, used by every player
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

}  // namespace pincer
