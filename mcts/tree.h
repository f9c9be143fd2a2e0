// The search tree's storage: nodes and edges in chunked arenas addressed by 32-bit indices.
//
// A node is a position reached in the search; its edges (one per legal action: the action, its
// prior and the index of the child node, 0 until visited) are one contiguous run in the edge
// arena, allocated when the node is expanded. Child nodes are created lazily, when a simulation
// first goes through their edge. Values are sums over the node's visits of player 0's win and of
// the draw probability, so that they read correctly for whoever is to move at the parent, even
// when the same player acts twice in a row. Keeping a subtree (tree reuse) copies it into fresh
// arenas, so memory never fragments and a search's memory is bounded by max_nodes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/game.h"

namespace pincer::mcts {

using NodeIndex = uint32_t;
constexpr NodeIndex kNoNode = 0;  // index 0 of every tree is never a node

// 8 bytes: the action id (games have at most 65536 actions), the prior stored as
// round(sqrt(prior) * 65535) (relative error below 1e-4 for priors above 1e-4, still nonzero
// down to 1e-10), and the child node.
struct Edge {
  uint16_t action = 0;
  uint16_t prior_bits = 0;
  NodeIndex child = kNoNode;

  float prior() const {
    const float r = prior_bits * (1.0f / 65535.0f);
    return r * r;
  }
  void set_prior(float p) {
    p = p > 0.0f ? (p < 1.0f ? p : 1.0f) : 0.0f;
    prior_bits = static_cast<uint16_t>(std::lround(std::sqrt(p) * 65535.0f));
  }
};
constexpr int kMaxActions = 65536;

enum class NodeState : uint8_t {
  kNew,       // created, not yet evaluated
  kPending,   // its evaluation is in flight
  kExpanded,  // evaluated; edges allocated
  kTerminal,  // the game is over here; nn_score holds the exact result
};

// A node's proven result, for any player to move.
constexpr uint8_t kUnproven = 0, kWinFor0 = 1, kWinFor1 = 2, kProvenDraw = 3;
inline uint8_t proof_of(int winner) {
  return static_cast<uint8_t>(winner < 0 ? kProvenDraw : 1 + winner);
}
inline uint8_t loss_for(int player) { return proof_of(player ^ 1); }
// A proof's exact value: player 0's win and the draw probability.
inline float proof_w0(uint8_t proof) { return proof == kWinFor0 ? 1.0f : 0.0f; }
inline float proof_d(uint8_t proof) { return proof == kProvenDraw ? 1.0f : 0.0f; }

constexpr int16_t kNoMinimax = -32768;
inline int16_t encode_minimax(float v0) {
  return static_cast<int16_t>(std::lround((v0 < -1 ? -1 : v0 > 1 ? 1 : v0) * 32767.0f));
}

struct Node {
  uint32_t first_edge = 0;
  uint32_t visits = 0;     // completed visits through this node
  uint16_t in_flight = 0;  // visits in flight (virtual loss); collect() keeps it below 65536
  // Implicit minimax backup (SearchConfig::minimax_weight): the minimax of the heuristic values
  // (the leaves' capture searches) over the expanded subtree, for player 0 in [-1, 1], stored as
  // round(value * 32767); kNoMinimax while unknown.
  int16_t minimax = kNoMinimax;
  float w0_sum = 0.0f;  // sum over visits of player 0's win probability
  float d_sum = 0.0f;   // sum over visits of the draw probability
  float nn_w0 = 0.0f;   // the evaluation of this node alone: player 0's win probability ...
  float nn_d = 0.0f;    // ... and the draw probability (for a terminal node: the result)
  uint16_t num_edges = 0;
  NodeState state = NodeState::kNew;
  uint8_t to_move : 1;
  // The game-theoretic value when known (MCTS-Solver): a Proof. Terminal nodes are proven; a
  // search stops at a proven node below the root and backs up its exact value.
  uint8_t proof : 2;
  // Its priors have had the heuristic's share (SearchConfig::heuristic_prior) mixed in.
  uint8_t heuristic_shaped : 1;
  // ... and, as a root, SearchConfig::heuristic_prior_root_plies' deeper share instead.
  uint8_t heuristic_root_shaped : 1;

  // The implicit minimax value for `player` in [-1, 1] (has_minimax() first).
  bool has_minimax() const { return minimax != kNoMinimax; }
  float minimax_for(int player) const {
    const float v0 = minimax * (1.0f / 32767.0f);
    return player == 0 ? v0 : -v0;
  }
  // Mean value for `player` in [-1, 1] (win - loss); 0 when unvisited.
  float q(int player) const {
    if (visits == 0) return 0.0f;
    const float w = player == 0 ? w0_sum : visits - w0_sum - d_sum;
    const float l = visits - w - d_sum;
    return (w - l) / visits;
  }
};

struct TreeStats {
  size_t nodes = 0;
  size_t edges = 0;
  size_t bytes = 0;  // node and edge storage in use
  size_t node_bytes = sizeof(Node);
  size_t edge_bytes = sizeof(Edge);
  double bytes_per_node() const { return nodes ? double(bytes) / nodes : 0.0; }
};

// Fixed-size chunks of T; allocate(n) returns the index of n contiguous entries in one chunk.
template <typename T>
class ChunkedArena {
 public:
  explicit ChunkedArena(int chunk_bits = 12) : bits_(chunk_bits) {}
  void set_chunk_bits(int bits) { bits_ = bits; }
  // n must not exceed the chunk size.
  uint32_t allocate(uint32_t n) {
    const uint32_t chunk_size = 1u << bits_;
    if (chunks_.empty() || (next_ >> bits_) >= chunks_.size() ||
        (next_ & (chunk_size - 1)) + n > chunk_size) {
      chunks_.push_back(std::make_unique<T[]>(chunk_size));
      next_ = static_cast<uint32_t>(chunks_.size() - 1) << bits_;
    }
    const uint32_t index = next_;
    next_ += n;
    used_ += n;
    return index;
  }
  T& operator[](uint32_t i) { return chunks_[i >> bits_][i & ((1u << bits_) - 1)]; }
  const T& operator[](uint32_t i) const { return chunks_[i >> bits_][i & ((1u << bits_) - 1)]; }
  size_t used() const { return used_; }
  void clear() {
    chunks_.clear();
    next_ = 0;
    used_ = 0;
  }
  void swap(ChunkedArena& other) {
    chunks_.swap(other.chunks_);
    std::swap(bits_, other.bits_);
    std::swap(next_, other.next_);
    std::swap(used_, other.used_);
  }

 private:
  int bits_;
  std::vector<std::unique_ptr<T[]>> chunks_;
  uint32_t next_ = 0;
  size_t used_ = 0;
};

class Tree {
 public:
  Tree();
  // Sizes edge chunks so that any node's edges fit in one (call before use).
  void set_num_actions(int num_actions);

  // Drops everything; the new root is a kNew node with `to_move`.
  void clear(int to_move);
  NodeIndex root() const { return root_; }
  Node& node(NodeIndex i) { return nodes_[i]; }
  const Node& node(NodeIndex i) const { return nodes_[i]; }
  Edge* edges(const Node& n) { return &edges_[n.first_edge]; }
  const Edge* edges(const Node& n) const { return &edges_[n.first_edge]; }

  NodeIndex new_node(int to_move);
  // Allocates `n`'s edges (n.num_edges = count) and returns them, for the caller to fill.
  Edge* new_edges(NodeIndex n, int count);

  // Makes the child through root edge `action` the root, keeping its subtree. Returns false (and
  // leaves the tree untouched) when that child was never expanded.
  bool promote(Action action);

  size_t num_nodes() const { return nodes_.used() - 1; }
  TreeStats stats() const;

 private:
  struct Empty {};
  explicit Tree(Empty) {}  // no root, no storage yet
  NodeIndex copy_subtree(Tree& to, NodeIndex from) const;

  ChunkedArena<Node> nodes_;
  ChunkedArena<Edge> edges_;
  int edge_bits_ = 14;
  NodeIndex root_ = kNoNode;
};

}  // namespace pincer::mcts
