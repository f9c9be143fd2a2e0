#include "mcts/tree.h"

#include <stdexcept>
#include <utility>

namespace pincer::mcts {

Tree::Tree() : nodes_(12), edges_(14) { clear(0); }

void Tree::set_num_actions(int num_actions) {
  int bits = 14;
  while ((1 << bits) < num_actions) ++bits;
  edge_bits_ = bits;
  edges_.clear();
  edges_.set_chunk_bits(bits);
  clear(0);
}

void Tree::clear(int to_move) {
  nodes_.clear();
  edges_.clear();
  nodes_.allocate(1);  // index 0: no node
  root_ = new_node(to_move);
}

NodeIndex Tree::new_node(int to_move) {
  const NodeIndex i = nodes_.allocate(1);
  nodes_[i] = Node{};
  nodes_[i].to_move = static_cast<uint8_t>(to_move);
  return i;
}

Edge* Tree::new_edges(NodeIndex n, int count) {
  if (count > 0xFFFF) throw std::length_error("mcts: more than 65535 legal actions");
  const uint32_t first = edges_.allocate(static_cast<uint32_t>(count));
  Node& node = nodes_[n];
  node.first_edge = first;
  node.num_edges = static_cast<uint16_t>(count);
  return &edges_[first];  // the caller fills every edge
}

NodeIndex Tree::copy_subtree(Tree& to, NodeIndex from) const {
  // Iterative copy: (source node, destination node) pairs still to fill in.
  std::vector<std::pair<NodeIndex, NodeIndex>> todo;
  const NodeIndex root = to.new_node(nodes_[from].to_move);
  todo.emplace_back(from, root);
  while (!todo.empty()) {
    const auto [src, dst] = todo.back();
    todo.pop_back();
    const Node& s = nodes_[src];
    to.nodes_[dst] = s;
    to.nodes_[dst].in_flight = 0;
    if (s.num_edges == 0 || s.state != NodeState::kExpanded) {
      to.nodes_[dst].num_edges = 0;
      to.nodes_[dst].first_edge = 0;
      if (s.state == NodeState::kPending) to.nodes_[dst].state = NodeState::kNew;
      continue;
    }
    Edge* out = to.new_edges(dst, s.num_edges);
    const Edge* in = &edges_[s.first_edge];
    for (int i = 0; i < s.num_edges; ++i) {
      out[i].action = in[i].action;
      out[i].prior_bits = in[i].prior_bits;
      out[i].child = kNoNode;
      const NodeIndex c = in[i].child;
      // A child that never finished a visit carries nothing worth keeping.
      if (c != kNoNode && nodes_[c].visits > 0) {
        const NodeIndex copy = to.new_node(nodes_[c].to_move);
        out = &to.edges_[to.nodes_[dst].first_edge];  // (stable: arenas never move entries)
        out[i].child = copy;
        todo.emplace_back(c, copy);
      }
    }
  }
  return root;
}

bool Tree::promote(Action action) {
  const Node& r = nodes_[root_];
  if (r.state != NodeState::kExpanded) return false;
  const Edge* e = &edges_[r.first_edge];
  NodeIndex child = kNoNode;
  for (int i = 0; i < r.num_edges; ++i) {
    if (e[i].action == action) child = e[i].child;
  }
  if (child == kNoNode || nodes_[child].state != NodeState::kExpanded) return false;
  Tree fresh{Empty{}};
  fresh.edges_.set_chunk_bits(edge_bits_);
  fresh.edge_bits_ = edge_bits_;
  fresh.nodes_.allocate(1);
  fresh.root_ = copy_subtree(fresh, child);
  nodes_.swap(fresh.nodes_);
  edges_.swap(fresh.edges_);
  root_ = fresh.root_;
  return true;
}

TreeStats Tree::stats() const {
  TreeStats s;
  s.nodes = num_nodes();
  s.edges = edges_.used();
  s.bytes = s.nodes * sizeof(Node) + s.edges * sizeof(Edge);
  return s;
}

}  // namespace pincer::mcts
