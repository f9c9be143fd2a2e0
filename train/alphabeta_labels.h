// Training labels from an alpha-beta search of one position, shared by the warm start's labelled
// games (train/warm_start.h) and self-play's expert games (selfplay.expert_games).
#pragma once

#include <vector>

#include "engine/game.h"
#include "play/alphabeta.h"
#include "proto/record.pb.h"

namespace pincer {

// Labels `m` from `info`, the search of a position whose legal actions are `legal`: the policy
// target is the search's best move with 1 - policy_smoothing of the mass (the rest spread evenly
// over the other legal moves; all of it when it is the only one), root_value the score as a win
// probability for the mover, 1 / (1 + exp(-score / value_scale)) (found wins and losses 1 and 0),
// and full_search is set so that the trainer takes the position. The played action is left to
// the caller.
void label_with_alphabeta(const std::vector<Action>& legal, const SearchInfo& info,
                          float policy_smoothing, double value_scale, MoveRecord& m);

}  // namespace pincer
