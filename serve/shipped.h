// What `pincer serve` (and `pincer analyze`, `pincer review`) use when the command line names no
// model and no player: the models shipped in the repository's models/ folder. A ruleset R is
// played and analysed by models/R.pt when that file exists (its description beside it in
// models/R.json), else by a classical player (alpha-beta by default); models/R.book, when it
// exists, is R's opening book. Without --rules every shipped ruleset is served.
#pragma once

#include <string>
#include <vector>

#include "serve/backends.h"

namespace pincer::serve {

// The first game offered (the page's default) when it is among the served rulesets.
inline constexpr const char* kDefaultRuleset = "seize-reference";

// The classical player of a ruleset without a shipped model.
inline constexpr const char* kFallbackPlayer = "alphabeta:time=1";

// The models folder: `explicit_dir` when given (it must exist), else the first existing of
// EXE/../models, EXE/../../models (a build tree's bin/ or cli/ inside the repository),
// EXE/../share/pincer/models, ./models, where EXE is the running executable's folder. "" when
// none exists. Throws std::invalid_argument for a given folder that does not exist.
std::string find_models_dir(const std::string& explicit_dir);

struct ShippedChoice {
  std::string rules;
  std::string model;  // "" = the fallback player
  std::string book;   // "" = none
};

// One choice per ruleset (`rules`, or every shipped ruleset when empty), looked up in
// `models_dir` ("" = nothing shipped: every ruleset gets the fallback player). Ordered: the
// default ruleset, the others with a model, the rest.
std::vector<ShippedChoice> shipped_choices(const std::vector<std::string>& rules,
                                           const std::string& models_dir);

// Fills `options` from the choices when it names no model and no player: the rulesets, the
// shipped model of each ("" where none, see BackendOptions::models) and the fallback player.
// Returns the books to load. Leaves `options` alone when it names a model or a player.
std::vector<std::string> use_shipped(BackendOptions& options, const std::string& models_dir);

}  // namespace pincer::serve
