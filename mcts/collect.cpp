// The collect/deliver protocol: descents to new leaves under virtual loss, the evaluation cache,
// answers expanded and backed up, and cancelled batches.
#include <spdlog/spdlog.h>

#include <stdexcept>
#include <string>

#include "mcts/search.h"

namespace pincer::mcts {

void LeafBatch::clear() {
  count_ = 0;
  requests_.clear();
}

LeafBatch::Leaf& LeafBatch::add() {
  if (count_ == leaves_.size()) leaves_.push_back(std::make_unique<Leaf>());
  return *leaves_[count_++];
}

bool Search::lookup_cache(LeafBatch::Leaf& leaf) {
  leaf.generation = cache_->generation();  // before the key: an answer must not outlive a switch
  leaf.eval_key = leaf.state->eval_key();
  return cache_->lookup(leaf.eval_key, leaf.legal.size(), scratch_);
}

Search::Descent Search::select_leaf(LeafBatch::Leaf& leaf) {
  leaf.path.clear();
  leaf.state = root_state_->clone();
  NodeIndex n = tree_.root();
  enter(leaf.path, n);
  while (true) {
    Node& node = tree_.node(n);
    if (node.state == NodeState::kTerminal) {
      backup(leaf.path, node.nn_w0, node.nn_d);
      ++stats_.terminals;
      return Descent::kDone;
    }
    const bool at_root = n == tree_.root();
    if (node.proof != kUnproven && !at_root) {  // the solver's exact value
      backup(leaf.path, proof_w0(node.proof), proof_d(node.proof));
      ++stats_.proven;
      return Descent::kDone;
    }
    if (node.state == NodeState::kPending || node.state == NodeState::kNew) {
      undo_virtual_loss(leaf.path);
      return Descent::kCollision;
    }
    if (shape_by_heuristic_ && !node.heuristic_shaped) shape_priors_by_heuristic(n, *leaf.state);
    const int i =
        at_root && gumbel_ ? select_gumbel_root() : select_child(n, at_root, config_.solver);
    if (i < 0) {
      undo_virtual_loss(leaf.path);
      return Descent::kCollision;
    }
    Edge& edge = tree_.edges(node)[i];
    leaf.state->apply(edge.action);
    if (edge.child != kNoNode) {
      n = edge.child;
      enter(leaf.path, n);
      continue;
    }
    // A new node.
    const NodeIndex c = tree_.new_node(leaf.state->to_move());
    tree_.edges(tree_.node(n))[i].child = c;
    enter(leaf.path, c);
    Node& child = tree_.node(c);
    const Outcome outcome = leaf.state->outcome();
    leaf.state->legal_actions(leaf.legal);
    if (outcome.over || leaf.legal.empty()) {
      child.state = NodeState::kTerminal;
      child.nn_w0 = outcome.over && outcome.winner == 0 ? 1.0f : 0.0f;
      child.nn_d = !outcome.over || outcome.winner < 0 ? 1.0f : 0.0f;
      child.proof = proof_of(outcome.over ? outcome.winner : -1);
      backup(leaf.path, child.nn_w0, child.nn_d);
      ++stats_.terminals;
      if (config_.solver) settle(leaf.path);
      return Descent::kDone;
    }
    const uint8_t proof = read_tactics(leaf);
    if (proof != kUnproven) {  // decided by the tactics: no network needed
      child.proof = proof;
      backup(leaf.path, proof_w0(proof), proof_d(proof));
      ++stats_.proven;
      settle(leaf.path);
      return Descent::kDone;
    }
    capture_search_leaf(leaf);
    if (cache_ && lookup_cache(leaf)) {
      expand(c, leaf.legal, scratch_);
      remember_raw_priors(leaf.path, scratch_);
      mix_leaf_value(c, leaf);
      add_proven_children(c, leaf);
      const Node& expanded = tree_.node(c);
      backup(leaf.path, expanded.nn_w0, expanded.nn_d);
      ++stats_.cache_hits;
      if (config_.solver) settle(leaf.path);
      return Descent::kDone;
    }
    child.state = NodeState::kPending;
    return Descent::kNeedsEval;
  }
}

size_t Search::collect(LeafBatch& batch, int max_leaves) {
  std::lock_guard<std::mutex> lock(mutex_);
  batch.clear();
  ++stats_.steps;
  have_result_ = false;  // the tree is about to change
  const NodeIndex root_index = tree_.root();
  Node& root = tree_.node(root_index);
  if (root.state == NodeState::kTerminal) return 0;
  if (root.state == NodeState::kPending) return 0;
  if (root.state == NodeState::kNew) {
    // The root itself needs the network first (not counted as a simulation).
    LeafBatch::Leaf& leaf = batch.add();
    leaf.path.assign(1, root_index);
    leaf.state = root_state_->clone();
    leaf.state->legal_actions(leaf.legal);
    ++root.in_flight;
    if (leaf.legal.empty()) {
      root.state = NodeState::kTerminal;  // a finished game
      const Outcome o = leaf.state->outcome();
      root.nn_w0 = o.winner == 0 ? 1.0f : 0.0f;
      root.nn_d = o.winner < 0 ? 1.0f : 0.0f;
      root.proof = proof_of(o.over ? o.winner : -1);
      backup(leaf.path, root.nn_w0, root.nn_d);
      batch.pop();
      return 0;
    }
    read_tactics(leaf);                // the root is evaluated whatever they find
    capture_search_leaf(leaf, false);  // the root's own value is the network's
    if (cache_ && lookup_cache(leaf)) {
      expand(root_index, leaf.legal, scratch_);
      remember_raw_priors(leaf.path, scratch_);
      mix_leaf_value(root_index, leaf);
      add_proven_children(root_index, leaf);
      if (config_.solver) try_prove(root_index);
      backup(leaf.path, tree_.node(root_index).nn_w0, tree_.node(root_index).nn_d);
      ++stats_.cache_hits;
      batch.pop();
      prepare_root();
    } else {
      root.state = NodeState::kPending;
      ++in_flight_;
      batch.requests_.push_back(EvalRequest{leaf.state.get(), &leaf.legal});
      return 1;
    }
  }
  if (!root_prepared_) prepare_root();
  // Nodes count their visits in flight in 16 bits.
  while (static_cast<int>(batch.size()) < max_leaves && started_ < budget() && !stopped_ &&
         in_flight_ < 65000) {
    if (tree_.num_nodes() >= config_.max_nodes) {
      if (!tree_full_) {
        spdlog::debug("mcts: tree full at {} nodes; the move's search stops after {} simulations",
                      tree_.num_nodes(), started_);
      }
      tree_full_ = true;
      break;
    }
    LeafBatch::Leaf& leaf = batch.add();
    const Descent d = select_leaf(leaf);
    if (d == Descent::kNeedsEval) {
      ++started_;
      ++in_flight_;
    } else {
      batch.pop();
      if (d == Descent::kCollision) {
        ++stats_.collisions;
        break;
      }
      ++started_;
      ++completed_;
      ++stats_.simulations;
    }
  }
  for (size_t i = 0; i < batch.size(); ++i) {
    LeafBatch::Leaf& leaf = *batch.leaves_[i];
    batch.requests_.push_back(EvalRequest{leaf.state.get(), &leaf.legal});
  }
  return batch.size();
}

void Search::deliver(LeafBatch& batch, const std::vector<Evaluation>& evals) {
  if (evals.size() < batch.size()) {
    throw std::runtime_error("mcts: " + std::to_string(evals.size()) + " evaluations for " +
                             std::to_string(batch.size()) + " requests");
  }
  deliver(batch, evals.data());
}

void Search::deliver(LeafBatch& batch, const Evaluation* evals) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Check every answer before changing anything, so that a bad batch can still be cancelled.
    for (size_t i = 0; i < batch.size(); ++i) {
      const size_t n = batch.leaves_[i]->legal.size();
      if (evals[i].priors.size() != n) {
        throw std::runtime_error("mcts: the evaluator returned " +
                                 std::to_string(evals[i].priors.size()) + " priors for " +
                                 std::to_string(n) + " legal actions");
      }
    }
    const NodeIndex root = tree_.root();
    for (size_t i = 0; i < batch.size(); ++i) {
      LeafBatch::Leaf& leaf = *batch.leaves_[i];
      const NodeIndex n = leaf.path.back();
      expand(n, leaf.legal, evals[i]);
      remember_raw_priors(leaf.path, evals[i]);
      mix_leaf_value(n, leaf);
      add_proven_children(n, leaf);
      if (cache_) cache_->insert(leaf.eval_key, leaf.generation, evals[i]);
      const Node& node = tree_.node(n);
      backup(leaf.path, node.nn_w0, node.nn_d);
      if (config_.solver) settle(leaf.path);
      --in_flight_;
      if (n != root) {
        ++completed_;
        ++stats_.simulations;
      }
    }
    stats_.evaluations += batch.size();
    if (!root_prepared_ && tree_.node(root).state == NodeState::kExpanded) prepare_root();
    batch.clear();
  }
  delivered_.notify_all();
}

void Search::cancel(LeafBatch& batch) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < batch.size(); ++i) {
      LeafBatch::Leaf& leaf = *batch.leaves_[i];
      undo_virtual_loss(leaf.path);
      const NodeIndex n = leaf.path.back();
      if (leaf.path.size() == 1) {
        tree_.node(n).state = NodeState::kNew;  // the root: evaluate it again later
      } else {
        // Unlink the leaf (its node stays unused in the arena until the tree is rebuilt).
        const Node& parent = tree_.node(leaf.path[leaf.path.size() - 2]);
        Edge* edges = tree_.edges(parent);
        for (int e = 0; e < parent.num_edges; ++e) {
          if (edges[e].child == n) edges[e].child = kNoNode;
        }
        --started_;
      }
      --in_flight_;
    }
    batch.clear();
  }
  delivered_.notify_all();
}

}  // namespace pincer::mcts
