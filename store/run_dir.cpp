// The run directory's paths and files (gate log, metrics, temporaries), torch-free.
#include "store/run_dir.h"

#include <fcntl.h>
#include <google/protobuf/text_format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "engine/atomic_file.h"
#include "store/gate_log.h"

namespace fs = std::filesystem;

namespace pincer {

std::string RunDir::model(int64_t step) const {
  char name[64];
  std::snprintf(name, sizeof name, "models/model-%06lld.pt", static_cast<long long>(step));
  return path(name);
}

const char* const kMetricsColumns =
    "unix_ms,event,step,games,positions,policy_loss,value_loss,lr,samples_per_s,"
    "selfplay_games_per_s,evals_per_s,avg_batch,candidate,score,elo,promoted,best_elo,vs_random,"
    "best,anchor_elo,anchor_low,anchor_high,anchor_games,anchor_opponents,core_hours,points_loss,"
    "ownership_loss,network_before,network_after,old_policy_loss,old_value_loss";

GateLog read_gate_log(const RunDir& dir) {
  if (!fs::exists(dir.gating())) return GateLog();
  return parse_gate_log(read_whole_file(dir.gating()), dir.gating());
}

void write_gate_log(const RunDir& dir, const GateLog& log) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(log, &text);
  atomic_write_file(dir.gating(), text);
}

namespace {

// A metrics.csv whose header is an earlier, shorter form of kMetricsColumns (a run dir of an older
// build) is rewritten once, atomically, with today's header and its rows padded with empty
// fields, so that every line keeps the header's number of fields.
void upgrade_metrics_header(const std::string& path) {
  const std::string columns = kMetricsColumns;
  {
    std::ifstream in(path);
    std::string first;
    if (!in || !std::getline(in, first) || first == columns) return;
  }
  std::string text;
  try {
    text = read_whole_file(path);
  } catch (const std::exception&) {
    return;
  }
  const auto eol = text.find('\n');
  const std::string header = text.substr(0, eol);
  if (header == columns || eol == std::string::npos) return;
  if (columns.compare(0, header.size() + 1, header + ",") != 0) return;  // not ours to change
  const size_t missing = std::count(columns.begin(), columns.end(), ',') -
                         std::count(header.begin(), header.end(), ',');
  std::string out = columns + "\n";
  size_t at = eol + 1;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    if (end == std::string::npos) break;  // a torn last line stays out
    out.append(text, at, end - at);
    out.append(missing, ',');
    out += '\n';
    at = end + 1;
  }
  atomic_write_file(path, out);
}

}  // namespace

void append_metrics_row(const RunDir& dir, const std::string& row) {
  upgrade_metrics_header(dir.metrics());
  // One write(2) per row (with the header when the file is new): a process killed at any moment
  // leaves whole lines only.
  const int fd = ::open(dir.metrics().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot append to " + dir.metrics());
  struct stat st {};
  const bool fresh = ::fstat(fd, &st) == 0 && st.st_size == 0;
  const std::string text = (fresh ? std::string(kMetricsColumns) + "\n" : "") + row + "\n";
  const ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("cannot append to " + dir.metrics());
  }
}

int remove_stale_temporaries(const RunDir& dir) {
  // engine/atomic_file.h names them <target>.tmp.<pid>.<n>; a live writer's are left alone.
  int removed = 0;
  std::error_code ec;
  for (const std::string& folder : {dir.root, dir.models(), dir.records()}) {
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      const std::string name = e.path().filename().string();
      const auto at = name.rfind(".tmp.");
      if (at == std::string::npos) continue;
      const long pid = std::strtol(name.c_str() + at + 5, nullptr, 10);
      if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) continue;
      if (fs::remove(e.path(), ec)) ++removed;
    }
  }
  return removed;
}

}  // namespace pincer
