// pincer bench nn | search: raw network throughput by batch size, and the same network inside
// self-play (simulations/s, network evals/s, average batch, share of wall time outside the
// network), compared with the raw throughput at the batch size self-play reached.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "cli/support/commands.h"
#include "engine/atomic_file.h"
#include "engine/registry.h"
#include "mcts/tree.h"
#include "nn/cpu_peak.h"
#include "nn/model.h"
#include "store/run_dir.h"
#include "train/bench.h"
#include "train/config.h"
#include "train/run_setup.h"
#include "train/selfplay.h"

namespace fs = std::filesystem;

namespace pincer::cli {
namespace {

struct NnOptions {
  std::string config = "configs/runs/seize.textproto";
  std::string model;
  std::vector<int> batches{1, 8, 16, 32, 64, 128, 256};
  double seconds = 2;
  int threads = 0;
  std::string precision;    // "" = the config's
  std::string policy_head;  // "" = the config's (fresh networks only)
  bool points_head = false;
  int growth = -1;  // >= 0: the network of the config's growth stage of that index
};

std::unique_ptr<Model> bench_model(const RunConfig& cfg, const GamePtr& game,
                                   const std::string& path) {
  if (!path.empty()) return Model::load(path, *game, cfg.device());
  return Model::create(*game, cfg.network(), cfg.device(), cfg.seed());
}

// The CPU's model name (/proc/cpuinfo), or "unknown".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown";
}

// The BLAS libraries this process has loaded (their real paths: Debian picks the BLAS through
// alternatives links), from /proc/self/maps; "none loaded" if none.
std::string loaded_blas() {
  std::ifstream in("/proc/self/maps");
  std::set<std::string> libs;
  std::string line;
  while (std::getline(in, line)) {
    const size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    const std::string path = line.substr(slash);
    const std::string name = fs::path(path).filename().string();
    if (name.find("blas") == std::string::npos) continue;
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    libs.insert(ec ? path : real.string());
  }
  std::string out;
  for (const std::string& l : libs) out += (out.empty() ? "" : ", ") + l;
  return out.empty() ? "none loaded" : out;
}

void bench_nn(const NnOptions& o) {
  RunConfig cfg = load_run_config(o.config);
  if (o.growth >= 0) {
    if (o.growth >= cfg.growth_size()) {
      throw ConfigError(o.config + " has " + std::to_string(cfg.growth_size()) +
                        " growth stages; --growth " + std::to_string(o.growth) + " is not one");
    }
    *cfg.mutable_network() = cfg.growth(o.growth).network();
  }
  if (!o.policy_head.empty()) cfg.mutable_network()->set_policy_head(o.policy_head);
  if (o.points_head) cfg.mutable_network()->set_points_head(true);
  GamePtr game = load_game(cfg.rules());
  auto model = bench_model(cfg, game, o.model);
  model->set_precision(
      parse_precision(o.precision.empty() ? cfg.inference().precision() : o.precision));
  const int threads = o.threads > 0 ? o.threads : cfg.inference().threads();
  set_torch_threads(threads);
  const auto positions = random_encoded_positions(*game, 512, 7);
  const NetworkConfig& net = model->metadata().network();
  std::printf(
      "network: %d blocks x %d channels, %s policy head%s%s, %lld parameters, %s, torch threads "
      "%d, device %s\n",
      net.blocks(), net.channels(), net.policy_head().empty() ? "dense" : net.policy_head().c_str(),
      net.points_head() ? ", points head" : "",
      net.ownership_head() ? ", ownership head (training only, not run)" : "",
      static_cast<long long>(model->parameter_count()), game->ruleset_name().c_str(), threads,
      model->device().c_str());
  const double flops = static_cast<double>(model->flops_per_position());
  std::printf("cpu: %s (bf16 instructions: %s); precision %s; %.1f MFLOP per position\n",
              cpu_model().c_str(), cpu_has_bf16() ? "yes" : "no",
              precision_name(model->precision()), flops / 1e6);
  // One core's peak for this precision, measured here on this thread (nn/cpu_peak.h): the
  // table's last column is GFLOP/cpu-s as a share of it.
  double peak = 0;
  if (model->device() == "cpu") {
    const CorePeak cp = core_peak(model->precision() == Precision::kBFloat16);
    peak = cp.gflops;
    if (peak > 0) {
      std::printf("peak: %.1f GFLOP/s a core (%s, measured)\n", peak, peak_kernel_name(cp.kernel));
    } else {
      std::printf("peak: unknown (no %s kernel for this CPU)\n",
                  precision_name(model->precision()));
    }
  } else {
    std::printf("peak: not measured (device %s)\n", model->device().c_str());
  }
  // GFLOP/cpu-s: per second of this process's CPU time, the figure to compare on a loaded machine.
  std::printf("%8s %12s %12s %10s %12s %8s\n", "batch", "evals/s", "ms/batch", "GFLOP/s",
              "GFLOP/cpu-s", "of peak");
  for (size_t i = 0; i < o.batches.size(); ++i) {
    const int b = o.batches[i];
    const RawThroughput r = measure_raw_throughput(*model, positions, b, o.seconds);
    const double per_cpu_s = r.evals_per_cpu_s * flops / 1e9;
    char share[16] = "-";
    if (peak > 0) std::snprintf(share, sizeof share, "%.1f%%", 100.0 * per_cpu_s / peak);
    std::printf("%8d %12.0f %12.2f %10.1f %12.1f %8s\n", b, r.evals_per_s, r.ms_per_batch,
                r.evals_per_s * flops / 1e9, per_cpu_s, share);
    std::fflush(stdout);
    // The BLAS is loaded lazily by the first product: say which one after the first batch.
    if (i == 0) std::printf("blas: %s\n", loaded_blas().c_str());
  }
}

struct SearchOptions {
  std::string config = "configs/runs/seize.textproto";
  std::string model;
  double seconds = 20;
  int games = 0;
  int threads = 0;
  int sims = 0;
};

void bench_search(const SearchOptions& o) {
  RunConfig cfg = load_run_config(o.config);
  if (o.games > 0) cfg.mutable_selfplay()->set_parallel_games(o.games);
  if (o.threads > 0) cfg.mutable_selfplay()->set_threads(o.threads);
  if (o.sims > 0) cfg.mutable_selfplay()->mutable_search()->set_simulations(o.sims);
  const fs::path tmp = fs::temp_directory_path() / ("pincer-bench-" + std::to_string(::getpid()));
  fs::remove_all(tmp);
  const RunDir dir(tmp.string());
  GamePtr game = prepare_run_dir(dir, cfg);
  if (!o.model.empty()) {
    Model::check_compatible(Model::read_metadata(o.model), *game, o.model);
    atomic_copy_file(o.model, dir.best());
  }
  SelfPlayStats s;
  {
    SelfPlay sp(game, cfg, dir, "bench");
    std::atomic<bool> stop{false};
    std::thread timer([&] {
      const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.seconds);
      while (std::chrono::steady_clock::now() < end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      stop = true;
    });
    sp.run(stop, 0, false);
    timer.join();
    s = sp.stats();
  }
  const auto& sc = cfg.selfplay();
  std::printf(
      "self-play: %s, %d games at once, %d threads, %d simulations/move, %d leaves/step, "
      "max batch %d, inference threads %d\n",
      game->ruleset_name().c_str(), sc.parallel_games(), sc.threads(), sc.search().simulations(),
      sc.search().leaves_per_batch(), cfg.inference().max_batch(), cfg.inference().threads());
  std::printf("  wall %.1f s, moves %lld, games finished %lld\n", s.seconds,
              static_cast<long long>(s.moves), static_cast<long long>(s.games));
  std::printf("  simulations/s   %10.0f\n", s.simulations_per_s());
  std::printf("  network evals/s %10.0f\n", s.inference.evals_per_s());
  std::printf("  average batch   %10.1f\n", s.inference.avg_batch());
  std::printf("  wall time outside the network %.1f%%\n", 100.0 * s.outside_network());
  mcts::TreeStats ts;
  std::printf("  tree node %zu bytes, edge %zu bytes\n", ts.node_bytes, ts.edge_bytes);
  // The raw network at the same batch size, same threads, nothing else running.
  const int batch = std::max(1, static_cast<int>(std::lround(s.inference.avg_batch())));
  auto model = Model::load(dir.best(), *game, cfg.device());
  set_torch_threads(cfg.inference().threads());
  const auto positions = random_encoded_positions(*game, 512, 7);
  const RawThroughput raw = measure_raw_throughput(*model, positions, batch, 3.0);
  std::printf("  raw network at batch %d: %.0f evals/s -> self-play reaches %.1f%% of it\n", batch,
              raw.evals_per_s, 100.0 * s.inference.evals_per_s() / raw.evals_per_s);
  fs::remove_all(tmp);
}

RegisterCommand register_bench{
    "bench", "Measure speed: bench nn (network throughput), bench search (self-play)",
    [](CLI::App& app) {
      app.require_subcommand(1);
      auto* nn = app.add_subcommand("nn", "Raw network throughput by batch size (evals/s)");
      auto no = std::make_shared<NnOptions>();
      nn->add_option("--config", no->config, "Run config (network, rules, device)")
          ->capture_default_str();
      nn->add_option("--model", no->model, "A model file instead of a fresh network");
      nn->add_option("--batch", no->batches, "Batch sizes")->delimiter(',')->capture_default_str();
      nn->add_option("--seconds", no->seconds, "Seconds per batch size")->capture_default_str();
      nn->add_option("--threads", no->threads, "Torch intra-op threads (default: the config's)");
      nn->add_option("--precision", no->precision,
                     "auto, float32 or bfloat16 (default: the config's inference.precision)")
          ->check(CLI::IsMember({"auto", "float32", "bfloat16"}));
      nn->add_option("--policy-head", no->policy_head,
                     "dense or conv, for a fresh network (default: the config's)")
          ->check(CLI::IsMember({"dense", "conv"}));
      nn->add_flag("--points-head", no->points_head, "Give a fresh network a points head");
      nn->add_option("--growth", no->growth,
                     "A fresh network of the config's growth stage of this index (from 0) "
                     "instead of its first network");
      nn->callback([no] { bench_nn(*no); });

      auto* se = app.add_subcommand("search", "Self-play speed and batching (nothing written)");
      auto so = std::make_shared<SearchOptions>();
      se->add_option("--config", so->config, "Run config")->capture_default_str();
      se->add_option("--model", so->model, "A model file instead of a fresh network");
      se->add_option("--seconds", so->seconds, "How long to play")->capture_default_str();
      se->add_option("--games", so->games, "Games at once (default: the config's)");
      se->add_option("--threads", so->threads, "Self-play threads (default: the config's)");
      se->add_option("--sims", so->sims, "Simulations per move (default: the config's)");
      se->callback([so] { bench_search(*so); });
    }};

}  // namespace
}  // namespace pincer::cli
