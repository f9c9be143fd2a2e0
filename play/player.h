// Players: anything that picks a move. Named by a spec string usable everywhere (match, play,
// serve, the gatekeeper): "random", "greedy", "alphabeta:depth=4", "mcts:sims=400",
// "net:model=PATH,sims=200".
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "engine/game.h"

namespace pincer {

class Player {
 public:
  virtual ~Player() = default;
  // The spec this player was made from.
  virtual std::string spec() const = 0;
  // Chooses a legal action in `state`, which is not over.
  virtual Action choose(const State& state) = 0;
  // A new game starts (drop any search tree).
  virtual void new_game() {}
};

// "kind:key=value,key=value" split into the kind and its arguments.
struct PlayerSpec {
  std::string kind;
  std::map<std::string, std::string> args;
};
// Throws std::invalid_argument naming the problem for malformed text.
PlayerSpec parse_player_spec(const std::string& text);

// Builds a player of one kind; throws std::invalid_argument for unknown or bad arguments.
using PlayerFactory =
    std::function<std::unique_ptr<Player>(const GamePtr& game, const PlayerSpec& spec, uint64_t seed)>;
void register_player_kind(const std::string& kind, PlayerFactory factory);
// Throws std::invalid_argument for an unknown kind (listing the known ones) or bad arguments.
std::unique_ptr<Player> make_player(const GamePtr& game, const std::string& spec, uint64_t seed);

}  // namespace pincer
