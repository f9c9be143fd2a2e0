// Records into numpy: a run dir's self-play chunks (store/records.h) and SGN files become the
// arrays a training loop reads. Chunk positions go through the trainer's own window
// (train/window.h), so planes, policy, value and points targets are the ones `pincer train`
// trains on.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "engine/atomic_file.h"
#include "engine/record.h"
#include "engine/registry.h"
#include "engine/ruleset.h"
#include "proto/run_config.pb.h"
#include "python/src/bindings.h"
#include "store/records.h"
#include "train/window.h"

namespace py = pybind11;

namespace pincer::python {
namespace {

// Positions with their targets, and where each came from.
struct Positions {
  std::vector<Sample> samples;
  std::vector<int32_t> game;  // index of the position's game among those read
  std::vector<int32_t> ply;   // moves played before it
  int games = 0;
};

void add_window(const Game& game, const RecordChunk& chunk, double root_value_weight,
                Positions& out, bool cut_games_from_root = false) {
  Window window(std::numeric_limits<size_t>::max(), root_value_weight, 0, cut_games_from_root);
  for (const GameRecord& record : chunk.games()) {
    // A reanalysis (selfplay.reanalyse_share) repeats a stored game with new targets: its
    // positions are that game's, not new ones, and the game is read as it was played.
    if (record.has_reanalysis()) continue;
    const int added = window.add_game(game, record);
    for (int i = 0; i < added; ++i) {
      out.game.push_back(out.games);
      out.ply.push_back(i);
    }
    ++out.games;
  }
  for (size_t i = 0; i < window.size(); ++i) {
    const Sample& s = window[i];
    Sample copy;
    copy.state = s.state->clone();
    copy.policy_index = s.policy_index;
    copy.policy = s.policy;
    copy.wdl = s.wdl;
    copy.points = s.points;
    out.samples.push_back(std::move(copy));
  }
}

// An SGN game's positions: the played move as the policy target, the result as the value.
void add_sgn_game(const ReplayedGame& g, Positions& out) {
  const Outcome o = g.final->outcome();
  const std::array<int, 2> final_points = g.final->points();
  auto state = g.start->clone();
  for (size_t i = 0; i < g.actions.size(); ++i) {
    Sample s;
    s.state = state->clone();
    const int us = state->to_move();
    s.policy_index = {state->policy_index(g.actions[i])};
    s.policy = {1.0f};
    if (o.over && o.winner >= 0) {
      s.wdl = o.winner == us ? std::array<float, 3>{1, 0, 0} : std::array<float, 3>{0, 0, 1};
    }
    s.points = static_cast<float>(final_points[us] - final_points[us ^ 1]);
    out.samples.push_back(std::move(s));
    out.game.push_back(out.games);
    out.ply.push_back(static_cast<int32_t>(i));
    state->apply(g.actions[i]);
  }
  ++out.games;
}

template <typename T>
py::array_t<T> array(std::vector<py::ssize_t> shape) {
  return py::array_t<T>(shape);
}

// How the policy targets come: one dense row of num_actions per position, or sparse (the
// nonzero entries of every position in a row, position i's from policy_start[i] on).
bool dense_policy(const std::string& policy) {
  if (policy != "dense" && policy != "sparse") {
    throw py::value_error("policy: \"dense\" or \"sparse\" (got \"" + policy + "\")");
  }
  return policy == "dense";
}

void add_sparse_policy(const Positions& p, py::dict& out) {
  size_t entries = 0;
  for (const Sample& s : p.samples) entries += s.policy_index.size();
  auto start = array<int64_t>({static_cast<py::ssize_t>(p.samples.size() + 1)});
  auto index = array<int32_t>({static_cast<py::ssize_t>(entries)});
  auto share = array<float>({static_cast<py::ssize_t>(entries)});
  int64_t* start_p = start.mutable_data();
  int32_t* index_p = index.mutable_data();
  float* share_p = share.mutable_data();
  {
    py::gil_scoped_release release;
    int64_t at = 0;
    for (size_t i = 0; i < p.samples.size(); ++i) {
      start_p[i] = at;
      const Sample& s = p.samples[i];
      std::copy(s.policy_index.begin(), s.policy_index.end(), index_p + at);
      std::copy(s.policy.begin(), s.policy.end(), share_p + at);
      at += static_cast<int64_t>(s.policy_index.size());
    }
    start_p[p.samples.size()] = at;
  }
  out["policy_start"] = start;
  out["policy_index"] = index;
  out["policy_share"] = share;
}

// The arrays of docs/python.md ("Records"). Allocated with the GIL held, filled without it.
py::dict to_arrays(const Game& game, const Positions& p, bool dense) {
  const InputShape in = game.input_shape();
  const auto n = static_cast<py::ssize_t>(p.samples.size());
  const int actions = game.num_actions();
  auto planes = array<float>({n, in.channels, in.height, in.width});
  auto policy = array<float>({dense ? n : 0, actions});
  auto has_policy = array<bool>({n});
  auto value = array<float>({n, 3});
  auto points = array<float>({n});
  auto to_move = array<int8_t>({n});
  auto game_index = array<int32_t>({n});
  auto ply = array<int32_t>({n});
  float* planes_p = planes.mutable_data();
  float* policy_p = policy.mutable_data();
  bool* has_policy_p = has_policy.mutable_data();
  float* value_p = value.mutable_data();
  float* points_p = points.mutable_data();
  int8_t* to_move_p = to_move.mutable_data();
  {
    py::gil_scoped_release release;
    if (dense) std::fill(policy_p, policy_p + n * actions, 0.0f);
    for (py::ssize_t i = 0; i < n; ++i) {
      const Sample& s = p.samples[i];
      s.state->encode(planes_p + i * in.size());
      if (dense) {
        float* row = policy_p + i * actions;
        for (size_t k = 0; k < s.policy_index.size(); ++k) row[s.policy_index[k]] += s.policy[k];
      }
      has_policy_p[i] = !s.policy_index.empty();
      std::copy(s.wdl.begin(), s.wdl.end(), value_p + 3 * i);
      points_p[i] = s.points;
      to_move_p[i] = static_cast<int8_t>(s.state->to_move());
    }
  }
  std::copy(p.game.begin(), p.game.end(), game_index.mutable_data());
  std::copy(p.ply.begin(), p.ply.end(), ply.mutable_data());
  py::dict out;
  out["planes"] = planes;
  if (dense) {
    out["policy"] = policy;
  } else {
    add_sparse_policy(p, out);
  }
  out["has_policy"] = has_policy;
  out["value"] = value;
  out["points"] = points;
  out["to_move"] = to_move;
  out["game"] = game_index;
  out["ply"] = ply;
  out["games"] = p.games;
  out["num_actions"] = actions;
  return out;
}

RecordChunk read_chunk_for(const std::string& path, const py::object& rules, GamePtr& game) {
  if (!rules.is_none()) {
    game = game_from(rules);
    py::gil_scoped_release release;
    return read_record_chunk(path, *game);
  }
  std::string bytes;
  RecordChunk header;
  {
    py::gil_scoped_release release;
    bytes = read_whole_file(path);
    if (!header.ParseFromString(zstd_decompress(bytes, path))) {
      throw RecordError(path + ": damaged record chunk");
    }
  }
  game = load_game(header.ruleset_name());
  py::gil_scoped_release release;
  return parse_record_chunk(bytes, path, *game);
}

RunConfig read_run_config(const std::string& dir) {
  RunConfig config;
  const std::string path = dir + "/config.textproto";
  parse_text_proto(read_whole_file(path), path, config);
  return config;
}

py::dict read_run(const std::string& dir, std::optional<double> root_value_weight,
                  std::optional<int> newest, const std::string& policy) {
  const bool dense = dense_policy(policy);
  const RunConfig config = read_run_config(dir);
  const GamePtr game = load_game(config.rules());
  const double weight = root_value_weight.value_or(config.trainer().root_value_weight());
  if (weight < 0 || weight > 1) throw py::value_error("root_value_weight: in [0, 1]");
  std::vector<std::string> chunks = list_record_chunks(dir + "/records");
  if (newest) {
    if (*newest < 0) throw py::value_error("newest: a count of chunks, 0 or more");
    if (chunks.size() > static_cast<size_t>(*newest)) {
      chunks.erase(chunks.begin(), chunks.end() - *newest);
    }
  }
  Positions p;
  {
    py::gil_scoped_release release;
    for (const std::string& name : chunks) {
      add_window(*game, read_record_chunk(dir + "/records/" + name, *game), weight, p,
                 config.trainer().cut_game_result() == "root_value");
    }
  }
  py::dict out = to_arrays(*game, p, dense);
  out["chunks"] = chunks;
  out["rules"] = config.rules();
  out["fingerprint"] = game->fingerprint();
  return out;
}

py::list chunk_games(const std::string& path, const py::object& rules) {
  GamePtr game;
  const RecordChunk chunk = read_chunk_for(path, rules, game);
  py::list out;
  for (const GameRecord& r : chunk.games()) {
    py::dict g;
    g["model_id"] = r.model_id();
    g["start"] = r.start();
    std::vector<int> actions;
    for (const MoveRecord& m : r.moves()) actions.push_back(m.action());
    py::array_t<int32_t> a(static_cast<py::ssize_t>(actions.size()));
    std::copy(actions.begin(), actions.end(), a.mutable_data());
    g["actions"] = a;
    g["winner"] = r.winner();
    g["reason"] = r.reason();
    g["final_points"] = std::vector<int>(r.final_points().begin(), r.final_points().end());
    g["seed"] = r.seed();
    g["finished_unix_ms"] = r.finished_unix_ms();
    g["expert_player"] =
        r.has_expert_player() ? py::object(py::int_(r.expert_player())) : py::object(py::none());
    // A reanalysis (selfplay.reanalyse_share): (chunk, game index) of the game it re-searched.
    g["reanalysis_of"] =
        r.has_reanalysis()
            ? py::object(py::make_tuple(r.reanalysis().chunk(), r.reanalysis().game()))
            : py::object(py::none());
    out.append(g);
  }
  return out;
}

}  // namespace

void bind_records(py::module_& m) {
  m.def(
      "read_chunk",
      [](const std::string& path, const py::object& rules, double root_value_weight,
         const std::string& policy) {
        const bool dense = dense_policy(policy);
        if (root_value_weight < 0 || root_value_weight > 1) {
          throw py::value_error("root_value_weight: in [0, 1]");
        }
        GamePtr game;
        const RecordChunk chunk = read_chunk_for(path, rules, game);
        Positions p;
        {
          py::gil_scoped_release release;
          add_window(*game, chunk, root_value_weight, p);
        }
        return to_arrays(*game, p, dense);
      },
      py::arg("path"), py::arg("rules") = py::none(), py::arg("root_value_weight") = 0.0,
      py::arg("policy") = "dense",
      R"(Every position of a record chunk with the trainer's targets, as numpy arrays.

rules: a ruleset name or file or a pincer.Game (default: the ruleset the chunk names). Returns a
dict: planes float32 (N, C, H, W), policy float32 (N, num_actions) by policy index, has_policy
bool (N) (False where the move had no full search: not a policy target), value float32 (N, 3)
win/draw/loss for the player to move, points float32 (N) final points difference for the player
to move, to_move int8 (N), game int32 (N) and ply int32 (N) (where each position comes from), and
games (the number of games). policy="sparse": instead of policy, policy_index int32 and
policy_share float32 (the nonzero entries of every position in a row) and policy_start int64
(N + 1): position i's entries are [policy_start[i], policy_start[i + 1]); pincer.policy_batch
makes dense rows of them.)");
  m.def("read_run", &read_run, py::arg("dir"), py::arg("root_value_weight") = py::none(),
        py::arg("newest") = py::none(), py::arg("policy") = "dense",
        R"(The positions of a run directory's record chunks (records/*.chunk), like read_chunk.

root_value_weight: the value target's share of the search's root value (default: the run
config's trainer.root_value_weight); newest: read only the newest this many chunks; policy:
"dense" or "sparse" as in read_chunk. The dict
also holds chunks (the names read, oldest first), rules and fingerprint.)");
  m.def("read_chunk_games", &chunk_games, py::arg("path"), py::arg("rules") = py::none(),
        "The games of a record chunk: model_id, start, actions, winner, reason, final_points, "
        "seed, finished_unix_ms, expert_player, reanalysis_of");
  m.def(
      "read_sgn",
      [](const std::string& path, const std::string& policy) {
        const bool dense = dense_policy(policy);
        const std::string text = read_whole_file(path);
        const std::vector<SgnRecord> records = parse_sgn(text);
        if (records.empty()) throw GameError(path + ": no game record");
        GamePtr game;
        Positions p;
        for (const SgnRecord& r : records) {
          ReplayedGame g = replay_record(r);
          if (game && g.game->fingerprint() != game->fingerprint()) {
            throw GameError(path + ": records of two rulesets (" + game->ruleset_name() + ", " +
                            g.game->ruleset_name() + ")");
          }
          game = g.game;
          add_sgn_game(g, p);
        }
        py::dict out = to_arrays(*game, p, dense);
        out["rules"] = game->ruleset_name();
        out["fingerprint"] = game->fingerprint();
        return out;
      },
      py::arg("path"), py::arg("policy") = "dense",
      R"(The positions of an SGN file's games as read_chunk's arrays: the policy target is the
move played (one-hot), the value the game's result for the player to move (a draw for a game
not finished), points the final points difference for the player to move.)");
}

}  // namespace pincer::python
