// MCTS-Solver (Winands et al. 2008) and the shallow tactics of new leaves (an MCTS-minimax
// hybrid after Baier and Winands): proven results are kept in the nodes (Node::proof), proved
// upward as children are proven, and read by selection and by the choice of the played move.
#include <algorithm>

#include "mcts/search.h"

namespace pincer::mcts {

namespace {
constexpr uint8_t kTerminalBit = 4;
constexpr int kToMoveShift = 3;
}  // namespace

uint8_t Search::read_tactics(LeafBatch::Leaf& leaf) {
  leaf.tactics.clear();
  if (!config_.solver || config_.tactics <= 0) return kUnproven;
  const State& s = *leaf.state;
  const int us = s.to_move();
  const size_t n = leaf.legal.size();
  if (config_.tactics == 1) {
    s.winning_actions(wins_);
    if (wins_.empty()) return kUnproven;
    leaf.tactics.assign(n, 0);
    for (Action a : wins_) {
      const size_t i = std::find(leaf.legal.begin(), leaf.legal.end(), a) - leaf.legal.begin();
      if (i < n) leaf.tactics[i] = proof_of(us) | kTerminalBit;
    }
    return proof_of(us);
  }
  // Every move: does it end the game, or can whoever moves next win at once?
  leaf.tactics.assign(n, 0);
  bool all_proven = true, any = false, draw = false;
  for (size_t i = 0; i < n; ++i) {
    std::unique_ptr<State> next = s.clone();
    next->apply(leaf.legal[i]);
    const int mover = next->to_move();
    const Outcome o = next->outcome();
    uint8_t t = 0;
    if (o.over) {
      t = proof_of(o.winner) | kTerminalBit;
    } else if (next->has_winning_action()) {
      t = proof_of(mover) | static_cast<uint8_t>(mover << kToMoveShift);
    } else {
      all_proven = false;
      continue;
    }
    any = true;
    leaf.tactics[i] = t;
    const uint8_t proof = t & 3;
    if (proof == proof_of(us)) return proof;  // a win: the leaf is won
    draw |= proof == kProvenDraw;
  }
  if (!any) leaf.tactics.clear();
  if (!all_proven) return kUnproven;
  return draw ? kProvenDraw : loss_for(us);
}

void Search::add_proven_children(NodeIndex n, const LeafBatch::Leaf& leaf) {
  if (leaf.tactics.empty()) return;
  for (size_t i = 0; i < leaf.tactics.size(); ++i) {
    const uint8_t t = leaf.tactics[i];
    if (t == 0 || tree_.edges(tree_.node(n))[i].child != kNoNode) continue;
    const NodeIndex c = tree_.new_node((t >> kToMoveShift) & 1);
    Node& child = tree_.node(c);
    child.proof = t & 3;
    child.nn_w0 = proof_w0(child.proof);
    child.nn_d = proof_d(child.proof);
    if (t & kTerminalBit) child.state = NodeState::kTerminal;
    tree_.edges(tree_.node(n))[i].child = c;
  }
}

bool Search::try_prove(NodeIndex n) {
  Node& node = tree_.node(n);
  if (node.proof != kUnproven) return true;
  if (node.state != NodeState::kExpanded) return false;
  const Edge* edges = tree_.edges(node);
  const uint8_t win = proof_of(node.to_move);
  bool all_proven = true, draw = false;
  for (int i = 0; i < node.num_edges; ++i) {
    const uint8_t proof = edges[i].child ? tree_.node(edges[i].child).proof : kUnproven;
    if (proof == win) {
      node.proof = win;
      return true;
    }
    if (proof == kUnproven) all_proven = false;
    draw |= proof == kProvenDraw;
  }
  if (!all_proven) return false;
  node.proof = draw ? kProvenDraw : loss_for(node.to_move);
  return true;
}

void Search::settle(const std::vector<NodeIndex>& path) {
  for (size_t k = path.size(); k-- > 0;) {
    if (!try_prove(path[k])) return;
  }
}

int Search::solver_choice(const SearchResult& r, int chosen) const {
  const int n = static_cast<int>(r.actions.size());
  auto better = [&](int a, int b) {  // more visits, then the higher prior
    return b < 0 || r.visits[a] > r.visits[b] ||
           (r.visits[a] == r.visits[b] && r.prior[a] > r.prior[b]);
  };
  // Among wins, one that ends the game now first (a deeper proven win could be delayed forever).
  const Node& root = tree_.node(tree_.root());
  const Edge* edges = tree_.edges(root);
  auto immediate = [&](int i) {
    return edges[i].child && tree_.node(edges[i].child).state == NodeState::kTerminal;
  };
  int win = -1, kept = -1;
  for (int i = 0; i < n; ++i) {
    if (r.proven[i] == Proven::kWin && (win < 0 || immediate(i) > immediate(win) ||
                                        (immediate(i) == immediate(win) && better(i, win)))) {
      win = i;
    }
    if (r.proven[i] != Proven::kLoss && better(i, kept)) kept = i;
  }
  if (win >= 0) return win;
  if (r.proven[chosen] == Proven::kLoss && kept >= 0) return kept;
  return chosen;
}

void Search::apply_proofs_to_targets(SearchResult& r) const {
  const int n = static_cast<int>(r.actions.size());
  // The moves a perfect player would pick: the proven wins if there are any, else every move not
  // proven lost (when some are); the targets keep their shares among those, or spread evenly
  // when the search gave those moves nothing.
  std::vector<bool> keep(n, false);
  bool any_win = false, any_loss = false;
  for (int i = 0; i < n; ++i) {
    any_win |= r.proven[i] == Proven::kWin;
    any_loss |= r.proven[i] == Proven::kLoss;
  }
  if (!any_win && !any_loss) return;
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    keep[i] = any_win ? r.proven[i] == Proven::kWin : r.proven[i] != Proven::kLoss;
    kept += keep[i];
  }
  if (kept == 0) return;  // every move loses: the search's preferences are all there is
  for (std::vector<float>* target : {&r.visit_policy, &r.improved_policy}) {
    if (target->size() != static_cast<size_t>(n)) continue;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += keep[i] ? (*target)[i] : 0.0f;
    for (int i = 0; i < n; ++i) {
      (*target)[i] = !keep[i]  ? 0.0f
                     : sum > 0 ? static_cast<float>((*target)[i] / sum)
                               : 1.0f / kept;
    }
  }
}

}  // namespace pincer::mcts
