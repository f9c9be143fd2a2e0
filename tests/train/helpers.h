// Shared helpers of the train/ and nn/ tests: scratch directories, a tic-tac-toe run config and
// game records.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/game.h"
#include "nn/model.h"
#include "proto/record.pb.h"
#include "proto/run_config.pb.h"
#include "tests/support/tictactoe.h"
#include "train/config.h"

namespace pincer::testing {

// A fresh, empty directory under the system temp dir, removed when the object dies.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    path_ = (std::filesystem::temp_directory_path() /
             ("pincer-test-" + tag + "-" + std::to_string(::getpid()) + "-" +
              std::to_string(counter++)))
                .string();
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    if (!std::getenv("PINCER_KEEP_TEST_DIRS")) std::filesystem::remove_all(path_);
  }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

// A model's outputs (policy logits, then win/draw/loss) on three fixed tic-tac-toe positions:
// equal outputs mean equal networks, as far as a test needs to know.
inline std::vector<float> tictactoe_outputs(Model& m, const Game& game) {
  const std::vector<std::string> pos = {".../.../... x", "x.o/.x./... o", "xxo/oox/x.. o"};
  std::vector<float> input(pos.size() * m.input_size());
  for (size_t i = 0; i < pos.size(); ++i) {
    game.parse_state(pos[i])->encode(input.data() + i * m.input_size());
  }
  std::vector<float> logits(pos.size() * m.num_actions()), wdl(pos.size() * 3);
  m.infer(input.data(), static_cast<int>(pos.size()), logits.data(), wdl.data());
  logits.insert(logits.end(), wdl.begin(), wdl.end());
  return logits;
}

inline std::string source_dir() {
  const char* s = std::getenv("PINCER_SOURCE_DIR");
  return s ? s : ".";
}

// Registers tic-tac-toe and writes its (header-only) ruleset file into `dir`; returns its path.
inline std::string tictactoe_rules(const std::string& dir) {
  register_tictactoe();
  const std::string path = dir + "/tictactoe.textproto";
  std::ofstream(path) << "game: \"tictactoe\"\nname: \"tictactoe\"\n";
  return path;
}

// A small, fast tic-tac-toe run config.
inline RunConfig tictactoe_config(const std::string& rules_path) {
  const std::string text = "rules: \"" + rules_path + R"("
    seed: 7
    network { blocks: 2 channels: 32 policy_channels: 4 value_channels: 2 value_hidden: 32 }
    inference { max_batch: 64 max_wait_us: 500 threads: 1 }
    selfplay {
      search { simulations: 48 leaves_per_batch: 2 }
      parallel_games: 32
      threads: 2
      dirichlet_alpha: 0.6
      temperature: 1.0
      temperature_moves: 4
      games_per_chunk: 32
    }
    trainer {
      optimizer { kind: "adam" learning_rate: 0.003 weight_decay: 0.0001 }
      batch_size: 128
      window_positions: 12000
      min_positions: 500
      samples_per_position: 3
      checkpoint_every: 100
      total_steps: 600
      threads: 1
    }
    gating { games: 12 threshold: 0.5 search { simulations: 32 } random_opening_plies: 1 }
  )";
  return parse_run_config(text, "tictactoe test config");
}

// A game as a self-play record: every move a full search of 10 simulations whose policy target
// is all on the move played, root value `root_value`; written by `model_id`.
inline GameRecord searched_record(const Game& game, const std::vector<Action>& moves, int winner,
                                  const std::string& model_id, float root_value = 0.5f) {
  GameRecord r;
  r.set_game(game.game_name());
  r.set_ruleset_name(game.ruleset_name());
  r.set_fingerprint(game.fingerprint());
  r.set_model_id(model_id);
  auto state = game.initial_state();
  std::vector<Action> legal;
  for (Action a : moves) {
    state->legal_actions(legal);
    MoveRecord* m = r.add_moves();
    m->set_action(a);
    m->set_full_search(true);
    m->set_simulations(10);
    m->set_root_value(root_value);
    for (Action l : legal) {
      m->add_policy_actions(l);
      m->add_policy(l == a ? 1.0f : 0.0f);
    }
    state->apply(a);
  }
  r.set_winner(winner);
  r.set_reason(winner < 0 ? "draw" : "line");
  return r;
}

}  // namespace pincer::testing
