// SGN game records (seed 001): "[Key "Value"]" headers, then numbered moves in short form.
// Generic over games: a record names its ruleset and that ruleset's fingerprint, and is refused
// when the fingerprint differs from the ruleset's, because the same moves can be legal under one
// version of the rules and illegal under the next.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/game.h"

namespace pincer {

using Headers = std::vector<std::pair<std::string, std::string>>;

struct SgnRecord {
  Headers headers;
  std::vector<std::string> moves;  // move texts as written
  int first_line = 1;              // line of the record's first header in its file

  // The value of a header, or "" if absent.
  std::string header(const std::string& key) const;
};

// Splits SGN text into records (a file may hold several). Throws GameError with the line number
// on malformed headers or comments.
std::vector<SgnRecord> parse_sgn(const std::string& text);

struct ReplayedGame {
  GamePtr game;
  std::unique_ptr<State> start;
  std::unique_ptr<State> final;
  std::vector<Action> actions;
};

// Loads the ruleset the record names (Ruleset header: a shipped name or a path), refuses a
// missing or different Fingerprint (naming both), replays the moves (an illegal or ambiguous
// move is refused with its move number) and checks a Result header against the replay.
ReplayedGame replay_record(const SgnRecord& record);

// The result as a header value: the winner's side name, "draw", or "*" for a game not over.
std::string result_text(const Game& game, const State& final_state);

// Writes a record: the standard headers (Event, Site, Date, Round and the side names from
// `headers` when given, then Ruleset, Fingerprint, Position for a non-initial start, Result,
// Termination), any other given headers, then the moves in short form, numbered every two plies.
std::string write_sgn(const Game& game, const State& start, const std::vector<Action>& actions,
                      const Headers& headers = {});

}  // namespace pincer
