//===- Counters.cpp - counters, serialization and reports -----------------===//

#include "Counters.h"

#include "Layout.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace seqpar {
namespace rt {
namespace detail {

void Counters::addCollective(const CounterKey &key, uint64_t bytesSent,
                             double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  CollectiveCounter &c = collectives_[key];
  c.calls += 1;
  c.bytesSent += bytesSent;
  c.seconds += seconds;
  for (auto &kv : open_)
    kv.second.collectiveSeconds += seconds;
}

void Counters::addWait(const CounterKey &key, double seconds) {
  std::lock_guard<std::mutex> lock(mutex_);
  collectives_[key].waitSeconds += seconds;
  for (auto &kv : open_)
    kv.second.waitSeconds += seconds;
}

Status Counters::regionBegin(const std::string &name, int64_t flops,
                             double now) {
  if (name.empty() || name.find('\n') != std::string::npos)
    return Status::error(StatusCode::InvalidArgument,
                         "region_begin: the name must be non-empty and "
                         "contain no newline");
  if (flops < 0)
    return Status::error(StatusCode::InvalidArgument,
                         "region_begin: negative FLOP count " +
                             std::to_string(flops) + " for region '" + name +
                             "'");
  std::lock_guard<std::mutex> lock(mutex_);
  if (!open_.emplace(name, Open{now, flops}).second)
    return Status::error(StatusCode::InvalidArgument,
                         "region_begin: region '" + name + "' is already open");
  return Status::success();
}

Status Counters::regionEnd(const std::string &name, double now) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = open_.find(name);
  if (it == open_.end())
    return Status::error(StatusCode::InvalidArgument,
                         "region_end: region '" + name + "' is not open");
  RegionCounter &r = regions_[name];
  r.calls += 1;
  r.flops += it->second.flops;
  r.seconds += now - it->second.start;
  r.waitSeconds += it->second.waitSeconds;
  r.collectiveSeconds += it->second.collectiveSeconds;
  open_.erase(it);
  return Status::success();
}

CounterSnapshot Counters::snapshot(int32_t rank) const {
  std::lock_guard<std::mutex> lock(mutex_);
  CounterSnapshot s;
  s.rank = rank;
  s.collectives = collectives_;
  s.regions = regions_;
  return s;
}

void Counters::reset() {
  std::lock_guard<std::mutex> lock(mutex_);
  collectives_.clear();
  regions_.clear();
}

namespace {
template <typename T> std::string joinList(const std::vector<T> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? "," : "") + std::to_string(v[i]);
  return s.empty() ? "-" : s;
}

template <typename T> std::vector<T> splitList(const std::string &s) {
  std::vector<T> v;
  if (s == "-")
    return v;
  std::istringstream is(s);
  std::string item;
  while (std::getline(is, item, ','))
    v.push_back(static_cast<T>(std::stoll(item)));
  return v;
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

CounterSnapshot aggregateOf(const std::vector<CounterSnapshot> &ranks) {
  CounterSnapshot a;
  a.rank = -1;
  for (const CounterSnapshot &s : ranks) {
    for (const auto &kv : s.collectives) {
      CollectiveCounter &c = a.collectives[kv.first];
      c.calls += kv.second.calls;
      c.bytesSent += kv.second.bytesSent;
      c.seconds = std::max(c.seconds, kv.second.seconds);
      c.waitSeconds = std::max(c.waitSeconds, kv.second.waitSeconds);
    }
    for (const auto &kv : s.regions) {
      RegionCounter &r = a.regions[kv.first];
      r.calls += kv.second.calls;
      r.flops += kv.second.flops;
      r.seconds = std::max(r.seconds, kv.second.seconds);
      r.waitSeconds = std::max(r.waitSeconds, kv.second.waitSeconds);
      r.collectiveSeconds =
          std::max(r.collectiveSeconds, kv.second.collectiveSeconds);
    }
    a.allocCurrentBytes = std::max(a.allocCurrentBytes, s.allocCurrentBytes);
    a.allocPeakBytes = std::max(a.allocPeakBytes, s.allocPeakBytes);
  }
  return a;
}

void textSection(std::ostringstream &os, const CounterSnapshot &s) {
  char line[256];
  std::snprintf(line, sizeof line, "  %-15s %-10s %-6s %8s %16s %12s %12s\n",
                "collective", "grid", "axes", "calls", "bytes_sent", "seconds",
                "wait_seconds");
  os << line;
  for (const auto &kv : s.collectives) {
    const CollectiveCounter &c = kv.second;
    std::snprintf(
        line, sizeof line, "  %-15s %-10s %-6s %8llu %16llu %12.6f %12.6f\n",
        opKindName(std::get<0>(kv.first)),
        shapeString(std::get<1>(kv.first)).c_str(),
        ("[" + joinList(std::get<2>(kv.first)) + "]").c_str(),
        static_cast<unsigned long long>(c.calls),
        static_cast<unsigned long long>(c.bytesSent), c.seconds,
        c.waitSeconds);
    os << line;
  }
  for (const auto &kv : s.regions) {
    const RegionCounter &r = kv.second;
    double gflops = r.seconds > 0 ? r.flops / r.seconds / 1e9 : 0;
    os << "  region '" << kv.first << "': calls " << r.calls << ", flops "
       << r.flops << ", seconds " << num(r.seconds) << ", GFLOP/s "
       << num(gflops);
    // Regions collectives ran in (a ring's, the entry's) add their seconds;
    // the others' lines are unchanged.
    if (r.collectiveSeconds > 0 || r.waitSeconds > 0)
      os << ", collective seconds " << num(r.collectiveSeconds)
         << ", wait seconds " << num(r.waitSeconds);
    os << "\n";
  }
  if (s.allocPeakBytes >= 0)
    os << "  alloc: current " << s.allocCurrentBytes << " bytes, peak "
       << s.allocPeakBytes << " bytes\n";
  else
    os << "  alloc: seqpar_runtime_alloc not linked\n";
}

void jsonSection(std::ostringstream &os, const CounterSnapshot &s) {
  os << "{";
  if (s.rank >= 0)
    os << "\"rank\": " << s.rank << ", ";
  os << "\"collectives\": [";
  bool first = true;
  for (const auto &kv : s.collectives) {
    const CollectiveCounter &c = kv.second;
    os << (first ? "" : ", ") << "{\"op\": \""
       << opKindName(std::get<0>(kv.first)) << "\", \"grid\": "
       << shapeString(std::get<1>(kv.first)) << ", \"axes\": ["
       << (std::get<2>(kv.first).empty() ? "" : joinList(std::get<2>(kv.first)))
       << "], \"calls\": " << c.calls << ", \"bytes_sent\": " << c.bytesSent
       << ", \"seconds\": " << num(c.seconds)
       << ", \"wait_seconds\": " << num(c.waitSeconds) << "}";
    first = false;
  }
  os << "], \"regions\": [";
  first = true;
  for (const auto &kv : s.regions) {
    os << (first ? "" : ", ") << "{\"name\": " << jsonString(kv.first)
       << ", \"calls\": " << kv.second.calls
       << ", \"flops\": " << kv.second.flops
       << ", \"seconds\": " << num(kv.second.seconds)
       << ", \"collective_seconds\": " << num(kv.second.collectiveSeconds)
       << ", \"wait_seconds\": " << num(kv.second.waitSeconds) << "}";
    first = false;
  }
  os << "], \"alloc\": {\"current_bytes\": " << s.allocCurrentBytes
     << ", \"peak_bytes\": " << s.allocPeakBytes << "}}";
}
} // namespace

std::string serialize(const CounterSnapshot &s) {
  std::ostringstream os;
  os << "R " << s.rank << "\n";
  os << "A " << s.allocCurrentBytes << " " << s.allocPeakBytes << "\n";
  for (const auto &kv : s.collectives)
    os << "C " << static_cast<int32_t>(std::get<0>(kv.first)) << " "
       << joinList(std::get<1>(kv.first)) << " "
       << joinList(std::get<2>(kv.first)) << " " << kv.second.calls << " "
       << kv.second.bytesSent << " " << num(kv.second.seconds) << " "
       << num(kv.second.waitSeconds) << "\n";
  for (const auto &kv : s.regions)
    os << "G " << kv.second.calls << " " << kv.second.flops << " "
       << num(kv.second.seconds) << " " << num(kv.second.waitSeconds) << " "
       << num(kv.second.collectiveSeconds) << " " << kv.first << "\n";
  return os.str();
}

bool deserialize(const std::string &text, CounterSnapshot *out) {
  CounterSnapshot s;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream is(line);
    std::string tag;
    is >> tag;
    if (tag == "R") {
      is >> s.rank;
    } else if (tag == "A") {
      is >> s.allocCurrentBytes >> s.allocPeakBytes;
    } else if (tag == "C") {
      int32_t kind;
      std::string grid, axes;
      CollectiveCounter c;
      is >> kind >> grid >> axes >> c.calls >> c.bytesSent >> c.seconds >>
          c.waitSeconds;
      s.collectives[CounterKey{static_cast<OpKind>(kind),
                               splitList<int64_t>(grid),
                               splitList<int32_t>(axes)}] = c;
    } else if (tag == "G") {
      RegionCounter r;
      is >> r.calls >> r.flops >> r.seconds >> r.waitSeconds >>
          r.collectiveSeconds;
      std::string name;
      std::getline(is >> std::ws, name);
      s.regions[name] = r;
    } else if (!tag.empty()) {
      return false;
    }
    if (is.fail())
      return false;
  }
  *out = std::move(s);
  return true;
}

std::string formatText(const std::vector<CounterSnapshot> &ranks,
                       bool aggregate) {
  std::ostringstream os;
  for (const CounterSnapshot &s : ranks) {
    os << "seqpar runtime counters: rank " << s.rank << "\n";
    textSection(os, s);
  }
  if (aggregate) {
    os << "seqpar runtime counters: aggregate over " << ranks.size()
       << " ranks (calls, bytes, FLOPs summed; seconds, peak bytes: max)\n";
    textSection(os, aggregateOf(ranks));
  }
  return os.str();
}

std::string formatJson(const std::vector<CounterSnapshot> &ranks,
                       bool aggregate) {
  std::ostringstream os;
  if (!aggregate && ranks.size() == 1) {
    jsonSection(os, ranks[0]);
    return os.str() + "\n";
  }
  os << "{\"world_size\": " << ranks.size() << ", \"ranks\": [";
  for (size_t i = 0; i < ranks.size(); ++i) {
    os << (i ? ", " : "");
    jsonSection(os, ranks[i]);
  }
  os << "]";
  if (aggregate) {
    os << ", \"aggregate\": ";
    jsonSection(os, aggregateOf(ranks));
  }
  os << "}\n";
  return os.str();
}

} // namespace detail
} // namespace rt
} // namespace seqpar
