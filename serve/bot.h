// The bot of a served game: one move for a session, through the shared analysis engine (so it
// waits in the same bounded queue as analyses), at the session's level and under its clock.
#pragma once

#include <string>

#include "play/time_manager.h"
#include "serve/engine.h"
#include "serve/session.h"

namespace pincer::serve {

struct BotOptions {
  int full_visits = 800;       // visits of a level-10 move (MCTS analysers)
  double untimed_seconds = 3;  // time limit of a move without a clock
  double wait_slack_s = 10;    // how long past its time a move may wait in the queue
  TimeControl time_control;
};

struct BotMove {
  Action action = -1;
  std::string text;
  double seconds = 0;  // thinking time
  std::string how;     // "search", "points" (playing for points), "only move"
  Json analysis;       // the analysis the move came from (null when none)
};

// Chooses the bot's move for `turn` (bot to move, game not over). Throws std::runtime_error
// when the engine is busy or the search fails.
BotMove choose_bot_move(AnalysisEngine& engine, const GameSession& session,
                        const GameSession::Turn& turn, const BotOptions& options, uint64_t seed);

}  // namespace pincer::serve
