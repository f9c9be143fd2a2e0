// A game played on the web page, kept on the server by id so that a reload resumes it: the
// moves, who the bot plays, its level, the clock. Thread-safe: every call locks the session.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "play/time_manager.h"
#include "serve/analyzer.h"

namespace pincer::serve {

// A move or resignation in a game that is over (the server answers 409).
class GameOver : public QueryError {
 public:
  using QueryError::QueryError;
};

// Clocks (play/time_manager.h): none; one clock for the whole game (when it runs out the side
// with more points wins, equal points go to Game::points_tie_winner, a draw where it names
// nobody); or one clock per side (the side whose clock runs out loses).
using ClockMode = ::pincer::ClockMode;

struct SessionSettings {
  std::vector<bool> bot_plays = {false, true};  // per player
  int level = 10;
  ClockMode clock = ClockMode::kNone;
  double clock_seconds = 0;  // the game's total (kGame) or each side's (kSide)
};

class GameSession {
 public:
  using Clock = std::chrono::steady_clock;
  GameSession(std::string id, std::shared_ptr<Analyzer> analyzer, std::unique_ptr<State> start,
              SessionSettings settings);

  const std::string& id() const { return id_; }
  const std::shared_ptr<Analyzer>& analyzer() const { return analyzer_; }
  const SessionSettings& settings() const { return settings_; }
  Clock::time_point last_used() const;

  // The whole game as JSON for the page (serve/api.md).
  Json describe();
  // Plays move text for the side to move; throws QueryError("move", ...) when illegal, GameOver
  // when the game is over.
  void play(const std::string& move_text);
  // Plays `action` if the game is still at `ply` plies (false when it moved on meanwhile).
  bool play_at(int ply, Action action);
  // `player` resigns (the side to move when -1); throws GameOver when the game is over.
  void resign(int player);
  // A copy of the current position, its ply count, and the bot's time left (seconds; < 0 when
  // untimed). Runs the clock first; nullopt when the game is over.
  struct Turn {
    std::unique_ptr<State> state;
    int ply = 0;
    double time_left = -1;
    bool bot_to_move = false;
  };
  std::optional<Turn> turn();
  std::string record();

 private:
  void tick_locked();  // charges the elapsed time; ends the game when a clock runs out
  bool over_locked() const;

  mutable std::mutex mutex_;
  std::string id_;
  std::shared_ptr<Analyzer> analyzer_;
  std::unique_ptr<State> start_;
  std::unique_ptr<State> state_;
  SessionSettings settings_;
  std::vector<Action> actions_;
  Json moves_ = Json::array();    // per ply: move, long, from, to, captured, side, points
  double remaining_[2] = {0, 0};  // kSide: each side; kGame: [0] is the game's
  Clock::time_point tick_;
  Clock::time_point last_used_;
  // An end decided off the board (resignation, time).
  bool ended_ = false;
  int winner_ = -1;
  std::string reason_;
};

}  // namespace pincer::serve
