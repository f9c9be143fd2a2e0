// Monte Carlo tree search over any game behind engine/game.h, guided by an Evaluator.
//
// One Search holds one game's tree. A move's search is a sequence of steps: collect() walks
// down the tree (PUCT, or Gumbel sequential halving at the root) to up to N new leaves, marking
// their paths with virtual loss, and hands back their evaluation requests; deliver() takes the
// Evaluator's answers, expands the leaves and backs their win/draw/loss values up, per player.
// Steps can be driven three ways:
//   - Search::run(): the whole move at once, by one thread or several threads on one tree;
//   - BatchStepper::step(): one thread steps many searches (many games) together, gathering one
//     batch of leaves from all of them and calling the Evaluator once (self-play);
//   - collect()/deliver() directly, for callers with their own scheduling.
// Everything is game-agnostic: values are kept for player 0 and read for whoever is to move, so
// games where the same player acts twice in a row are searched correctly. docs/search.md has the
// whole picture.
#pragma once

#include <array>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <vector>

#include "engine/capture_search.h"
#include "engine/game.h"
#include "mcts/cache.h"
#include "mcts/evaluator.h"
#include "mcts/tree.h"

namespace pincer::mcts {

// How the temperature used to pick the played move changes with the move number (plies since
// Search::reset). T = 0 plays the most visited move.
struct TemperatureSchedule {
  float initial = 0.0f;  // temperature of the first moves
  float final = 0.0f;    // temperature after them
  int moves = 0;         // plies played at `initial` (when halflife_moves == 0)
  // > 0: the temperature decays smoothly, final + (initial - final) * 0.5^(ply / halflife).
  float halflife_moves = 0.0f;
  float at(int ply) const;
};

struct SearchConfig {
  // Simulations (descents from the root ending at a leaf) added per move of a full search.
  int simulations = 100;
  // PUCT: score = Q + c * P * sqrt(N_parent) / (1 + N_child), with Q in [-1, 1] for the player
  // to move. c = c_puct + c_puct_log * log((N_parent + c_puct_base + 1) / c_puct_base).
  float c_puct = 1.5f;
  float c_puct_log = 0.0f;
  float c_puct_base = 19652.0f;
  // First-play urgency: an unvisited child is valued at the parent's Q minus
  // fpu_reduction * sqrt(sum of the priors of visited children); fpu_reduction_root at the root.
  float fpu_reduction = 0.25f;
  float fpu_reduction_root = 0.0f;
  // Policy softmax temperature: an expanded node's priors are the network's raised to
  // 1 / policy_temperature and renormalised (1 = as given; above 1 flattens them, as Leela
  // Chess Zero does at play). The cache keeps the network's own priors.
  float policy_temperature = 1.0f;
  // Leaves collected per step per tree (kept apart by virtual loss), and the weight of a
  // virtual loss: a visit in flight counts as `virtual_loss` lost visits while it is pending.
  int leaves_per_batch = 1;
  float virtual_loss = 1.0f;
  // Keep the subtree of the played move between moves.
  bool reuse_tree = true;
  // The tree stops growing (the move's search ends early) when it holds this many nodes.
  uint32_t max_nodes = 1'000'000;

  // Self-play: Dirichlet noise on the root priors (PUCT root), Gumbel noise (Gumbel root) and
  // playout-cap randomization. Off for play and gating: then every move is a full search.
  bool self_play = false;
  float dirichlet_alpha = 0.3f;
  float dirichlet_epsilon = 0.25f;
  // Playout-cap randomization: with this probability a move is a full search (`simulations`,
  // noise, a training target); otherwise `fast_simulations`, no noise, not a target.
  float full_search_probability = 1.0f;
  int fast_simulations = 20;
  // Forced playouts and policy target pruning (KataGo; mcts/forced_playouts.h), k: in a
  // self-play full search with a PUCT root, a visited root child with fewer than
  // sqrt(k * P * N) visits is chosen first, and the visit_policy target gives those visits back
  // where they were not earned. 0 = off (play and gating never force).
  float forced_playouts = 0.0f;

  // Gumbel root (0 = PUCT root): sequential halving over the top `gumbel_actions` actions of
  // Gumbel-top-k sampling; sigma(q) = (gumbel_c_visit + max N) * gumbel_c_scale * q, q in [0, 1].
  int gumbel_actions = 0;
  float gumbel_c_visit = 50.0f;
  float gumbel_c_scale = 1.0f;
  // Clean Gumbel targets. With gumbel_raw_policy_target the improved policy (the training target)
  // is softmax(the network's own logits + sigma(completed Q)), as in the paper: priors shaped by
  // capture_prior, heuristic_prior or policy_temperature still steer the root's selection, but
  // the net is not taught its own shaping back. With gumbel_rescale_q the completed Q values are
  // min-max rescaled to [0, 1] over the root's actions before sigma, as mctx does
  // (qtransform_completed_by_mix_value), for selection and target alike; pair it with a
  // gumbel_c_scale near mctx's 0.1.
  bool gumbel_raw_policy_target = false;
  bool gumbel_rescale_q = false;
  // Self-play with a Gumbel root: the Gumbel noise (which samples the considered and the played
  // actions) is drawn only for moves before this move number (plies since reset()); later moves
  // consider the top actions by prior and play the halving's winner, as in play. 0: every move.
  int gumbel_noise_moves = 0;

  // MCTS-Solver (Winands et al. 2008): game results proven in the tree are backed up (a node is
  // won when one child wins for its mover, lost or drawn when every child is proven); descents
  // stop at proven nodes, proven-lost children are not chosen while another is left, a proven
  // win is played and a proven-lost move never is (unless all are).
  bool solver = true;
  // Shallow tactics at each new leaf, through State::winning_actions() (an MCTS-minimax hybrid,
  // Baier and Winands): 0 none; 1 the mover's immediate wins (the leaf is then won without the
  // network); 2 also, for every move, whether it ends the game or lets the next mover win at
  // once (those moves are proven before the network sees the leaf). Needs the solver. 1 by
  // default: with the solver it finds the same blunders one visit later at a twentieth of the
  // cost of 2 (docs/search.md).
  int tactics = 1;

  // Leaf values mixed with a capture search (Baier and Winands' MCTS-minimax hybrid with state
  // evaluations; AlphaGo's mixing of the value network and rollouts): at each new leaf below the
  // root a search over the game's Heuristic (Game::heuristic(); none: no mixing) gives a score,
  // mapped to the mover's win probability p = 1 / (1 + exp(-score / quiescence_scale)) (1 or 0
  // for a found win or loss), and the leaf's value is (1 - w) * network + w * {p, 0, 1 - p} with
  // w = quiescence_weight. The search: `quiescence_plies` full-width alpha-beta plies, then
  // captures (positive Heuristic::capture_points) up to `quiescence_depth` plies. 0 = off; 0.5
  // by default (with capture_prior 0.3 it turned 0.05 into 0.60 against alphabeta:depth=1,
  // docs/search.md).
  float quiescence_weight = 0.5f;
  float quiescence_scale = 250.0f;  // in the heuristic's units (SE!ZE: 1/100 of a guard)
  int quiescence_depth = 8;
  int quiescence_plies = 0;
  // Priors shaped toward captures (needs a Heuristic): at every expanded node, the moves with
  // positive Heuristic::capture_points get capture_prior of the prior mass, spread evenly among
  // them: P' = (1 - capture_prior) * P + capture_prior * [capture] / captures. 0 = off.
  // Self-play's Dirichlet noise is mixed in after it.
  float capture_prior = 0.3f;
  // Priors shaped by the heuristic's judgement of each move (progressive bias after Chaslot et
  // al. 2008; needs a Heuristic): when a simulation first goes through an expanded node (the root
  // when it is prepared, before any noise), each of its moves is played on a copy and scored for
  // the mover by the capture search (quiescence_depth capture plies over Heuristic::evaluate),
  // and the network's share of the priors becomes (1 - h) * P + h * softmax(score /
  // heuristic_prior_scale), h = heuristic_prior (the capture share stays capture_prior). Leaves
  // never gone through cost nothing. 0 = off.
  float heuristic_prior = 0.0f;
  float heuristic_prior_scale = 100.0f;  // in the heuristic's units (SE!ZE: 1/100 of a guard)
  // Full-width alpha-beta plies under each root move before its capture search, for the root's
  // heuristic priors only (the root is shaped once a move, so it can afford a deeper look; a
  // root shaped before as an inner node of a kept subtree has that shallow share replaced).
  // 0 = the root is shaped like every other node. In [0, 4].
  int heuristic_prior_root_plies = 0;
  // Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant 2014): every node also
  // keeps the minimax of its subtree's capture-search values (the leaves' quiescence, proven
  // results exact), and selection uses (1 - minimax_weight) * Q + minimax_weight * minimax.
  // Runs the leaves' capture search even when quiescence_weight is 0. 0 = off.
  float minimax_weight = 0.0f;

  // Temperature of the played move (PUCT root; a Gumbel root plays its halving's winner).
  TemperatureSchedule temperature;

  uint64_t seed = 1;

  // Throws std::invalid_argument naming the first bad field.
  void validate() const;
};

// A proven result from the point of view of the player to move.
enum class Proven : int8_t { kUnknown = 0, kWin = 1, kDraw = 2, kLoss = 3 };

// What a move's search produced. Vectors are indexed like `actions` (the root's legal actions).
struct SearchResult {
  std::vector<Action> actions;
  std::vector<uint32_t> visits;  // child visits (including those kept by tree reuse)
  std::vector<float> prior;      // root priors as searched (after any noise)
  std::vector<float> q;          // child values in [-1, 1] for the player to move; 0 if unvisited
  std::vector<Proven> proven;    // the solver's result of each action for the player to move
  // Child win, draw, loss for the player to move at the root; {0, 1, 0} if unvisited.
  std::vector<std::array<float, 3>> child_wdl;
  // Visits normalised: the training target of a PUCT root. With the solver on, both targets are
  // restricted to the moves the proofs allow (the proven wins if any, else the moves not proven
  // lost), so a game never learns to prefer a move the tree has proven worse.
  std::vector<float> visit_policy;
  // Gumbel root: softmax(logits + sigma(completed Q)), the training target. PUCT: visit_policy.
  std::vector<float> improved_policy;
  // Gumbel root: the improved policy's expected value, sum of improved_policy x completed Q (the
  // mover's expected score in [0, 1]; unvisited actions count at the mixed value), a root value
  // target less biased than the mean over visits (which counts the single visits to the worst
  // sampled moves). -1 without a Gumbel root.
  float improved_value = -1.0f;
  // The policy target to train on: improved_policy with a Gumbel root, else visit_policy.
  const std::vector<float>& policy_target() const {
    return gumbel ? improved_policy : visit_policy;
  }

  std::array<float, 3> wdl{0, 1, 0};      // root value: win, draw, loss for the player to move
  std::array<float, 3> nn_wdl{0, 1, 0};   // the network's own value of the root
  Action action = -1;                     // the move to play
  Proven root_proven = Proven::kUnknown;  // the solver's result of the root
  int to_move = 0;                        // the player to move at the root
  bool full_search = true;                // playout cap: a training target
  bool gumbel = false;
  int simulations = 0;  // simulations this move
  uint32_t root_visits = 0;
};

// Counters of one Search since it was made.
struct SearchStats {
  uint64_t simulations = 0;    // completed descents
  uint64_t evaluations = 0;    // leaves sent to the Evaluator
  uint64_t cache_hits = 0;     // leaves answered by the cache
  uint64_t terminals = 0;      // descents ending at a finished game
  uint64_t proven = 0;         // descents ending at a proven node (tactics included)
  uint64_t collisions = 0;     // descents that met a leaf already in flight
  uint64_t capture_nodes = 0;  // nodes of the leaves' capture searches (quiescence_weight)
  uint64_t steps = 0;          // collect() calls
};

// The leaves of one collect(): their states live here until deliver().
class LeafBatch {
 public:
  // Requests to evaluate, in order; deliver() expects answers in the same order.
  const std::vector<EvalRequest>& requests() const { return requests_; }
  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  void clear();

 private:
  friend class Search;
  struct Leaf {
    std::unique_ptr<State> state;
    std::vector<Action> legal;
    std::vector<NodeIndex> path;  // root .. leaf
    uint64_t eval_key = 0;        // the state's eval_key() (with a cache)
    uint64_t generation = 0;      // the cache's generation when the leaf was collected
    // Tactics per legal action (SearchConfig::tactics): 0, or a Proof | kTerminalBit |
    // child's to_move << 3. Empty when nothing was found.
    std::vector<uint8_t> tactics;
    // The capture search's win probability for the mover (quiescence_weight); < 0: none.
    float capture_win = -1.0f;
    // Heuristic::capture_points of `legal` (capture_prior > 0); empty: none.
    std::vector<int> captures;
  };
  Leaf& add();
  void pop() { --count_; }

  std::vector<std::unique_ptr<Leaf>> leaves_;  // reused between steps
  size_t count_ = 0;
  std::vector<EvalRequest> requests_;
};

class Search {
 public:
  // `cache` (optional, shared, must outlive the search) answers repeated positions.
  Search(GamePtr game, SearchConfig config, EvalCache* cache = nullptr);
  ~Search();
  Search(const Search&) = delete;
  Search& operator=(const Search&) = delete;

  // Starts over from `root` (a new game): drops the tree, move number 0, begins a move.
  void reset(const State& root);
  // Plays `action` at the root, keeping its subtree when reuse_tree is on, and begins the next
  // move. `action` must be legal at the root.
  void advance(Action action);
  const State& root_state() const { return *root_state_; }
  // Plies played since reset().
  int move_number() const { return move_number_; }
  // Reseeds the random generator (noise, playout cap, temperature).
  void seed(uint64_t seed);

  // --- Stepping a move's search. Thread-safe: several threads may collect and deliver at once.
  // Collects up to `max_leaves` leaves needing the network into `batch` (cleared first).
  // Terminal leaves and cache hits are backed up at once and not returned. Returns the number of
  // leaves in `batch`; 0 while others' leaves are still in flight or when the move is done.
  size_t collect(LeafBatch& batch, int max_leaves);
  // Answers for `batch`'s requests, in order: expands the leaves and backs up their values.
  void deliver(LeafBatch& batch, const std::vector<Evaluation>& evals);
  void deliver(LeafBatch& batch, const Evaluation* evals);
  // Gives up on `batch`'s leaves (e.g. the Evaluator threw): removes their virtual losses and
  // forgets the leaves, so that the search can go on or advance.
  void cancel(LeafBatch& batch);
  // True when this move's simulations are done (or the tree is full, or the root is terminal)
  // and nothing is in flight.
  bool done() const;
  // The move's result; picks the action (once per move). The root must not be terminal.
  SearchResult result();

  // The move's statistics so far without picking an action (action = -1) and without ending the
  // move: for progress reports during a search. The root must be expanded.
  SearchResult snapshot() const;
  // The most visited line from the root through `first` (a root action), at most `max_len`
  // actions long, `first` included; just {first} when its child was never visited.
  std::vector<Action> principal_variation(Action first, int max_len) const;

  // Ends the current move's search early: no new leaves are collected (except the root's own
  // evaluation), and done() turns true once the leaves in flight are delivered. Thread-safe.
  void stop();

  // Runs the current move's search to the end with `threads` threads on this tree, each
  // collecting leaves_per_batch leaves per Evaluator call; with max_seconds > 0 it stops after
  // that long. Returns result().
  SearchResult run(Evaluator& evaluator, int threads = 1, double max_seconds = 0);

  const SearchConfig& config() const { return config_; }
  SearchStats stats() const;
  TreeStats tree_stats() const;
  // The current move: a full search (training target) under playout-cap randomization.
  bool full_search() const { return full_search_; }

 private:
  struct Gumbel;
  enum class Descent { kNeedsEval, kDone, kCollision };
  bool done_locked() const;
  SearchResult summary_locked() const;  // result() without the action pick
  void begin_move();
  void prepare_root();  // noise and Gumbel set-up once the root is expanded
  Descent select_leaf(LeafBatch::Leaf& leaf);
  // Looks `leaf` up in the cache (into scratch_), noting its key and the cache's generation.
  bool lookup_cache(LeafBatch::Leaf& leaf);
  int select_child(NodeIndex node, bool at_root, bool skip_lost);
  // --- MCTS-Solver and tactics (solver.cpp).
  // Reads the tactics of a new leaf into leaf.tactics; returns the leaf's own proof when they
  // decide it (kUnproven otherwise).
  uint8_t read_tactics(LeafBatch::Leaf& leaf);
  // After `node` was expanded with `leaf`'s legal actions: makes the children the tactics proved.
  void add_proven_children(NodeIndex node, const LeafBatch::Leaf& leaf);
  // Proves what can be proved along `path`, from its end up (stops at the first node it cannot).
  void settle(const std::vector<NodeIndex>& path);
  bool try_prove(NodeIndex node);
  // The solver's word on the played move: a proven win over the visit counts, never a proven
  // loss while another move is left.
  int solver_choice(const SearchResult& r, int chosen) const;
  // The training targets (visit_policy, improved_policy) restricted to the moves the proofs allow:
  // the proven wins when there are any, else the moves not proven lost.
  void apply_proofs_to_targets(SearchResult& r) const;
  int select_gumbel_root();
  // --- Leaf values mixed with the capture search (leaf_search.cpp).
  // The capture search's win probability of `leaf` for its mover into leaf.capture_win (-1 when
  // mixing is off or `value` is false), and its moves' capture points into leaf.captures.
  void capture_search_leaf(LeafBatch::Leaf& leaf, bool value = true);
  // Mixes the heuristic's share into the priors of the expanded node `n` at `state` (once per
  // node; SearchConfig::heuristic_prior).
  void shape_priors_by_heuristic(NodeIndex n, const State& state);
  // The same for the root, with SearchConfig::heuristic_prior_root_plies under each move.
  void shape_root_priors_by_heuristic();
  // The heuristic's share for the moves of the expanded node `node` at `state` into `p`:
  // softmax(score / heuristic_prior_scale) of each move's search `plies` full-width plies deep
  // (then captures), with the capture priors' share mixed in as at expansion.
  void heuristic_shares(const Node& node, const State& state, int plies, std::vector<float>& p);
  // After the node `n` was expanded for `leaf`: mixes its network value with leaf.capture_win
  // and shapes its priors toward captures.
  void mix_leaf_value(NodeIndex n, const LeafBatch::Leaf& leaf);
  // Implicit minimax: recomputes the minimax values along `path` from its end up (stops where
  // one does not change).
  void minimax_backup(const std::vector<NodeIndex>& path);
  void expand(NodeIndex node, const std::vector<Action>& legal, const Evaluation& eval);
  void enter(std::vector<NodeIndex>& path, NodeIndex node);
  void backup(const std::vector<NodeIndex>& path, float w0, float d);
  void undo_virtual_loss(const std::vector<NodeIndex>& path);
  int budget() const { return full_search_ ? config_.simulations : config_.fast_simulations; }
  // PUCT's c * sqrt(N) for a parent of `parent_visits` visits (SearchConfig::c_puct).
  float exploration_scale(float parent_visits) const;
  // Forced playouts apply to this move's search (a self-play full search, PUCT root).
  bool forcing() const {
    return config_.forced_playouts > 0 && config_.self_play && full_search_ && !gumbel_;
  }
  // The root child owed forced playouts (forcing() only), or -1.
  int forced_root_child(const Node& root, float parent_visits, bool skip_lost) const;
  // Gumbel root: sigma(completed Q) + logits into `improved`, plus the Gumbel noise into `score`.
  void gumbel_scores(std::vector<float>& improved, std::vector<float>& score) const;
  // Gumbel root: sigma(completed Q) per root action into `sigma`, and the completed Q values
  // themselves (the mover's expected score in [0, 1], before any rescaling) into `completed`.
  void gumbel_sigma(std::vector<float>& sigma, std::vector<float>& completed) const;
  // gumbel_raw_policy_target: keeps the network's own priors of the root (path of length 1) and
  // of the root's children (length 2, for the next move's root after tree reuse).
  void remember_raw_priors(const std::vector<NodeIndex>& path, const Evaluation& eval);

  GamePtr game_;
  SearchConfig config_;
  EvalCache* cache_;
  mutable std::mutex mutex_;
  std::condition_variable delivered_;
  std::mt19937_64 rng_;
  Tree tree_;
  std::unique_ptr<State> root_state_;
  int move_number_ = 0;

  // The current move.
  bool full_search_ = true;
  bool root_prepared_ = false;
  int started_ = 0;    // simulations begun this move
  int completed_ = 0;  // simulations finished this move
  int in_flight_ = 0;  // leaves collected, not yet delivered
  bool tree_full_ = false;
  bool stopped_ = false;
  Evaluation scratch_;
  // shape_priors_by_heuristic()'s scratch.
  std::vector<float> heuristic_scratch_;
  std::vector<float> heuristic_shallow_;
  std::vector<Action> heuristic_actions_;
  std::vector<int> heuristic_captures_;
  bool shape_by_heuristic_ = false;  // heuristic_prior > 0 and a Heuristic
  std::vector<Action> wins_;         // scratch of read_tactics()
  bool have_result_ = false;
  SearchResult result_;
  std::unique_ptr<Gumbel> gumbel_;
  // gumbel_raw_policy_target: the root's network priors (normalised, in edge order) and those of
  // the root's children expanded this move, by the action leading to them.
  std::vector<float> raw_root_priors_;
  std::vector<std::pair<Action, std::vector<float>>> raw_child_priors_;
  std::unique_ptr<CaptureSearch> capture_;  // quiescence_weight > 0 and a Heuristic
  const Heuristic* heuristic_ = nullptr;    // the game's, when a leaf search is on
  SearchStats stats_;
};

// Steps many searches together: one call gathers up to leaves_per_search leaves from every search
// that is not done, evaluates all of them with one Evaluator call, and delivers the answers. If
// the Evaluator throws, every search's leaves are cancelled and the exception goes on.
// The caller checks done() after each step, reads result(), advances or resets. Keep one stepper
// per thread; several threads may step disjoint sets of searches against one Evaluator.
class BatchStepper {
 public:
  explicit BatchStepper(Evaluator& evaluator) : evaluator_(evaluator) {}
  // Returns the number of positions sent to the Evaluator (0 when none of the searches needed one,
  // e.g. all done, or only cache hits and terminals this step).
  size_t step(const std::vector<Search*>& searches, int leaves_per_search = 1);

 private:
  Evaluator& evaluator_;
  std::vector<LeafBatch> batches_;
  std::vector<EvalRequest> requests_;
  std::vector<Evaluation> out_;
};

}  // namespace pincer::mcts
