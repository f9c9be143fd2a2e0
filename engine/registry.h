// Maps game names to the code that builds a Game from a ruleset file. The CLI and tools pick a
// game at run time through here; nothing else names a concrete game.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/ruleset.h"

namespace pincer {

// Builds a game from a ruleset file's text; throws GameError on any problem in it.
using GameFactory = std::function<GamePtr(const RulesetSource&)>;

// Adds a game (tests register toy games this way). Replaces an earlier one of the same name.
void register_game(const std::string& name, GameFactory factory);
std::vector<std::string> registered_games();

// Loads a ruleset by shipped name or path and builds its game. Throws GameError.
GamePtr load_game(const std::string& rules_name_or_path);

}  // namespace pincer
