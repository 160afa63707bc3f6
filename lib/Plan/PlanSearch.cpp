//===- PlanSearch.cpp - enumerate layouts, branch and bound ---------------===//
//
// The layouts of D devices are grouped into (t, c) families. A family's
// lower bound takes its best possible member: balanced attention (zigzag
// share), SP's smaller elementwise work, no exposed CP communication, and
// the TP communication every member pays; its memory bound is the weights
// and the KV cache every member holds. Families are visited by increasing
// bound and skipped once the bound loses to the keep-th best plan.
//
//===----------------------------------------------------------------------===//

#include "seqpar/Plan/Plan.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::seqpar;

std::vector<PlanConfig> mlir::seqpar::enumerateConfigs(const ModelShape &shape,
                                                       int64_t devices,
                                                       bool keepKV) {
  std::vector<PlanConfig> configs;
  for (int64_t tp = 1; tp <= devices; ++tp) {
    if (devices % tp != 0)
      continue;
    int64_t cp = devices / tp;
    for (bool sp :
         tp > 1 ? std::vector<bool>{true, false} : std::vector<bool>{false}) {
      auto add = [&](PlanConfig config) {
        config.tp = tp;
        config.sp = sp;
        config.cp = cp;
        if (configInvalidReason(shape, config).empty())
          configs.push_back(config);
      };
      if (cp == 1) {
        add(PlanConfig{});
        continue;
      }
      for (std::string strategy : {"ring", "all-gather", "ulysses", "hybrid"}) {
        std::vector<int64_t> sizes{1};
        if (strategy == "hybrid") {
          sizes.clear();
          for (int64_t u = 2; u < cp; ++u)
            if (cp % u == 0)
              sizes.push_back(u);
        }
        for (int64_t u : sizes)
          for (bool zigzag : {true, false}) {
            // Ulysses ranks each see the whole sequence: nothing to balance.
            if (zigzag && (!shape.causal || strategy == "ulysses"))
              continue;
            PlanConfig config;
            config.strategy = strategy;
            config.ulysses = u;
            config.zigzag = zigzag;
            config.keepKV =
                keepKV && (strategy == "ring" || strategy == "hybrid");
            add(config);
          }
      }
    }
  }
  return configs;
}

std::vector<PlanConfig>
mlir::seqpar::enumerateDecodeConfigs(const ModelShape &shape,
                                     const PlanRequest &request) {
  std::vector<PlanConfig> configs;
  for (int64_t tp = 1; tp <= request.devices; ++tp) {
    if (request.devices % tp != 0)
      continue;
    int64_t n = request.devices / tp;
    std::vector<std::string> merges{"all-gather"};
    if (n > 1)
      merges.push_back("all-to-all");
    for (const std::string &merge : merges) {
      PlanConfig config;
      config.decode = true;
      config.tp = tp;
      config.cp = n;
      config.merge = n > 1 ? merge : "";
      if (decodeConfigInvalidReason(shape, config, request).empty())
        configs.push_back(config);
    }
  }
  return configs;
}

bool mlir::seqpar::betterPlan(const RankedPlan &a, size_t aIndex,
                              const RankedPlan &b, size_t bIndex) {
  if (a.cost.seconds() != b.cost.seconds())
    return a.cost.seconds() < b.cost.seconds();
  if (a.cost.memoryBytes() != b.cost.memoryBytes())
    return a.cost.memoryBytes() < b.cost.memoryBytes();
  return aIndex < bIndex;
}

namespace {
struct Family {
  int64_t tp = 0;
  std::vector<size_t> members; // indices into the enumeration
  PlanCost bound;
};
} // namespace

PlanResult mlir::seqpar::searchPlans(const ModelShape &shape,
                                     const PlanRequest &request, size_t keep,
                                     bool exhaustive) {
  bool decode = request.workload == Workload::Decode;
  // Decode layouts are few (one per divisor of D and merge): all evaluated.
  exhaustive |= decode;
  std::vector<PlanConfig> configs =
      decode ? enumerateDecodeConfigs(shape, request)
             : enumerateConfigs(shape, request.devices, request.keepKV);
  PlanResult result;
  result.total = configs.size();

  std::vector<Family> families;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (families.empty() || families.back().tp != configs[i].tp)
      families.push_back(Family{configs[i].tp, {}, {}});
    families.back().members.push_back(i);
  }
  if (!exhaustive) {
    for (Family &family : families)
      family.bound = familyLowerBound(shape, family.tp,
                                      request.devices / family.tp, request);
    std::stable_sort(families.begin(), families.end(),
                     [](const Family &a, const Family &b) {
                       return a.bound.seconds() < b.bound.seconds();
                     });
  }

  std::vector<std::pair<RankedPlan, size_t>> ranked;
  auto kthSeconds = [&]() {
    return ranked.size() < keep ? std::numeric_limits<double>::infinity()
                                : ranked[keep - 1].first.cost.seconds();
  };
  for (const Family &family : families) {
    if (!exhaustive && (family.bound.seconds() > kthSeconds() ||
                        family.bound.memoryBytes() > request.memoryBudgetBytes))
      continue;
    for (size_t index : family.members) {
      RankedPlan plan{configs[index],
                      decode ? evaluateDecodePlan(shape, configs[index], request)
                             : evaluatePlan(shape, configs[index], request)};
      ++result.evaluated;
      if (plan.cost.memoryBytes() > request.memoryBudgetBytes) {
        if (!result.smallest ||
            plan.cost.memoryBytes() < result.smallest->cost.memoryBytes())
          result.smallest = plan;
        continue;
      }
      auto at = std::upper_bound(
          ranked.begin(), ranked.end(), std::make_pair(plan, index),
          [](const auto &a, const auto &b) {
            return betterPlan(a.first, a.second, b.first, b.second);
          });
      ranked.insert(at, {plan, index});
      if (ranked.size() > keep)
        ranked.pop_back();
    }
  }
  for (auto &entry : ranked)
    result.ranked.push_back(entry.first);
  // Nothing fits: say how far the smallest layout is from the budget.
  if (ranked.empty() && !exhaustive)
    return searchPlans(shape, request, keep, /*exhaustive=*/true);
  return result;
}

llvm::json::Value mlir::seqpar::planToJSON(const RankedPlan &plan,
                                           const ModelShape &shape) {
  const PlanConfig &c = plan.config;
  const PlanCost &k = plan.cost;
  llvm::json::Array collectives;
  for (const CollectiveVolume &v : k.collectives)
    collectives.push_back(llvm::json::Object{
        {"kind", getCollectiveKindName(v.kind)},
        {"axes", v.axes},
        {"calls", v.calls},
        {"bytes_sent", v.bytes},
    });
  if (c.decode)
    return llvm::json::Object{
        {"tp", c.tp},
        {"dcp", c.cp},
        {"merge", c.merge},
        {"pipeline", c.pipelineOptions(shape)},
        {"seconds", k.seconds()},
        {"compute_seconds", k.computeSeconds},
        {"tp_comm_seconds", k.tpCommSeconds},
        {"dcp_comm_seconds", k.cpCommSeconds},
        {"memory_bytes", k.memoryBytes()},
        {"weight_bytes", k.weightBytes},
        {"kv_cache_bytes", k.cacheBytes},
        {"transient_bytes", k.transientBytes},
        {"kv_capacity_tokens", k.capacityTokens},
        {"bytes_sent", k.bytesSent},
        {"collectives", std::move(collectives)},
    };
  return llvm::json::Object{
      {"tp", c.tp},
      {"sp", c.sp},
      {"cp", c.cp},
      {"strategy", c.strategy},
      {"ulysses", c.ulysses},
      {"load_balance", c.cp > 1 && c.zigzag ? "zigzag" : "none"},
      {"pipeline", c.pipelineOptions(shape)},
      {"seconds", k.seconds()},
      {"compute_seconds", k.computeSeconds},
      {"tp_comm_seconds", k.tpCommSeconds},
      {"cp_comm_seconds", k.cpCommSeconds},
      {"memory_bytes", k.memoryBytes()},
      {"weight_bytes", k.weightBytes},
      {"kv_cache_bytes", k.cacheBytes},
      {"saved_activation_bytes", k.savedBytes},
      {"transient_bytes", k.transientBytes},
      {"bytes_sent", k.bytesSent},
      {"keep_kv", c.keepKV},
      {"collectives", std::move(collectives)},
  };
}
