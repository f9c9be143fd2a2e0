// The perft recursion shared by the games' own position types: the leaf count of the game tree
// to `depth` plies, where a finished game has no children and the last ply is counted in bulk
// (count_actions) instead of played. Position provides over(), count_actions(),
// generate(List&) and the move function `Play` (apply unless the game has a cheaper one).
#pragma once

#include <cstdint>

namespace pincer {

template <typename Position, typename List, void (Position::*Play)(int) = &Position::apply>
uint64_t bulk_perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  if (pos.over()) return 0;
  if (depth == 1) return static_cast<uint64_t>(pos.count_actions());
  List list;
  pos.generate(list);
  uint64_t nodes = 0;
  for (int a : list) {
    Position child = pos;
    (child.*Play)(a);
    nodes += bulk_perft<Position, List, Play>(child, depth - 1);
  }
  return nodes;
}

}  // namespace pincer
