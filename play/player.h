// Players: anything that picks a move. Named by a spec string usable everywhere (match, play,
// serve, the gatekeeper): "random", "greedy", "alphabeta:depth=4", "alphabeta:time=0.1",
// "mcts:sims=400", "net:model=PATH,sims=200". docs/players.md lists every kind and argument.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

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
  // Before choose() under a clock: the seconds left on the clock that runs while this player
  // thinks (the game's one clock or its own); -1 without a clock. Players that manage time
  // (alphabeta, net) plan the move from it (play/time_manager.h); others ignore it.
  virtual void set_time_left(double seconds) { (void)seconds; }
  // One line about the last choice for people (depth, score, nodes); "" when there is nothing.
  virtual std::string last_info() const { return ""; }
};

// "kind:key=value,key=value" split into the kind and its arguments.
struct PlayerSpec {
  std::string kind;
  std::map<std::string, std::string> args;
};
// Throws std::invalid_argument naming the problem for malformed text.
PlayerSpec parse_player_spec(const std::string& text);
// Back to text: "kind" or "kind:k=v,..." with keys in order.
std::string to_string(const PlayerSpec& spec);
// A comma-separated list of specs: a piece of the form key=value (no kind before its '=')
// continues the spec before it, so "random,alphabeta:depth=3,hash=8,greedy" is three specs.
std::vector<std::string> split_player_specs(const std::string& text);

// Reads a spec's arguments with checks; every error names the spec, the key and what is wrong.
// Call finish() last: it refuses keys nobody asked for, listing the accepted ones.
class SpecArgs {
 public:
  explicit SpecArgs(const PlayerSpec& spec) : spec_(spec) {}
  bool has(const std::string& key);
  int get_int(const std::string& key, int fallback, int min, int max);
  double get_double(const std::string& key, double fallback, double min, double max);
  std::string get_string(const std::string& key, const std::string& fallback);
  void finish() const;

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& why) const;
  const PlayerSpec& spec_;
  std::set<std::string> known_;
};

// Builds a player of one kind; throws std::invalid_argument for unknown or bad arguments.
using PlayerFactory = std::function<std::unique_ptr<Player>(const GamePtr& game,
                                                            const PlayerSpec& spec, uint64_t seed)>;
// Adds (or replaces) a kind. The built-in kinds (random, greedy, alphabeta, mcts, human) are
// always there.
void register_player_kind(const std::string& kind, PlayerFactory factory);
std::vector<std::string> registered_player_kinds();
// The factory of a kind, or an empty function when none is registered (to wrap a kind).
PlayerFactory player_kind_factory(const std::string& kind);
// Throws std::invalid_argument for an unknown kind (listing the known ones) or bad arguments.
std::unique_ptr<Player> make_player(const GamePtr& game, const std::string& spec, uint64_t seed);

}  // namespace pincer
