// Matches between two players: games in pairs with colours swapped, each pair from its own
// opening (a few random plies from the start, none over and none where the side to move can
// win at once), played in parallel threads, reproducible from a seed, scored for player A with
// an interval and optionally stopped early by an SPRT. `pincer match`, `pincer ladder` and the
// gatekeeper all run through here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "play/elo.h"
#include "play/player.h"
#include "play/sprt.h"
#include "play/time_manager.h"

namespace pincer {

// Makes a fresh player for one game from a seed (a spec plus a game, or a closure holding e.g.
// a shared network evaluator).
using PlayerMaker = std::function<std::unique_ptr<Player>(uint64_t seed)>;
// Checks the spec now (throws std::invalid_argument) and returns a maker for it.
PlayerMaker player_maker(const GamePtr& game, const std::string& spec);

// A random opening: `plies` random legal moves from `start` (default: the initial state), drawn
// from `seed`, such that the game is not over and the side to move has no move that wins at
// once. Falls back to fewer plies where no such line is found.
std::vector<Action> random_opening(const Game& game, int plies, uint64_t seed,
                                   const State* start = nullptr);

struct PlayedGame {
  std::vector<Action> actions;  // from the start given to play_game
  Outcome outcome;
  bool adjudicated = false;                  // stopped at max_plies and counted as a draw
  bool on_time = false;                      // decided by the clock running out
  std::array<double, 2> time_left = {0, 0};  // on the clock(s) at the end: game (in [0]) or sides
  // Wall-clock seconds each player (by number) spent choosing its moves, and its moves.
  double think_seconds[2] = {0, 0};
  int moves[2] = {0, 0};
};

// Called before each action is applied: the state, the action, the player who chose it.
using MoveObserver = std::function<void(const State& before, Action action, int player)>;

// Plays `start` to the end; players[p] moves for player p. A game still going after max_plies
// actions is counted as a draw (adjudicated). Under a clock each player is told the time left
// before it moves (Player::set_time_left) and the time it thinks is taken off; when the clock
// runs out the game ends as clock_outcome() says (play/time_manager.h).
PlayedGame play_game(const State& start, Player* players[2], int max_plies,
                     const MoveObserver& observer = {}, const GameClock& clock = {});

struct MatchGame {
  int index = 0;        // 0-based; games 2k and 2k+1 share opening k
  int a_player = 0;     // the side (player number) A played
  std::string spec[2];  // by player number
  uint64_t seed = 0;
  // The start both games of the pair played from (Game::parse_start reads it): a start drawn
  // from the match seed for a random-start game, else the fixed start ("").
  std::string start;
  std::vector<Action> actions;  // from `start`, opening first
  int opening_plies = 0;
  Outcome outcome;
  bool adjudicated = false;
  bool on_time = false;  // decided by the clock
  double score_a = 0.5;
  double seconds = 0;
  // Wall-clock seconds each player (by number) spent choosing its moves, and its moves.
  double think_seconds[2] = {0, 0};
  int moves[2] = {0, 0};
};

struct MatchOptions {
  int games = 100;  // rounded up to an even number
  int threads = 1;
  int opening_plies = 4;
  uint64_t seed = 1;
  int max_plies = 2000;
  // Every pair's start: a setup string or a position text (Game::parse_start); "" draws a start
  // per pair from `seed` (the fixed start for a fixed-start game).
  std::string position;
  std::optional<SprtConfig> sprt;
  // The games' clock (none by default): players that manage time plan their moves from it.
  GameClock clock;
  // Called once per counted game, in game order, from one thread at a time.
  std::function<void(const MatchGame&)> on_game;
};

struct MatchResult {
  std::string spec_a, spec_b;
  int wins = 0, draws = 0, losses = 0;  // of A
  double score_as[2] = {0, 0};          // A's points by the side it played
  int games_as[2] = {0, 0};
  ScoreEstimate estimate;
  std::optional<SprtStatus> sprt;
  bool stopped_early = false;  // the SPRT decided before all games were played
  double seconds = 0;
  double mean_plies = 0;
  std::vector<MatchGame> games;  // counted games, in order
  // Mean wall-clock seconds per move of A and of B (over the counted games).
  double seconds_per_move_a() const { return seconds_per_move(true); }
  double seconds_per_move_b() const { return seconds_per_move(false); }

 private:
  double seconds_per_move(bool a) const;
};

// Throws std::invalid_argument for bad options; rethrows the first error of any game.
MatchResult run_match(const GamePtr& game, const std::string& spec_a, const PlayerMaker& a,
                      const std::string& spec_b, const PlayerMaker& b, const MatchOptions& options);
// The same from specs.
MatchResult run_match(const GamePtr& game, const std::string& spec_a, const std::string& spec_b,
                      const MatchOptions& options);

// The game as an SGN record (engine/record.h) with the players, round, opening and seed.
std::string match_game_text(const Game& game, const MatchGame& g, const std::string& event);

}  // namespace pincer
