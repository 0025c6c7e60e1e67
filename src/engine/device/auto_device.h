// device = "auto": the rule, measured on GPUs, that picks the GPU or the CPU for a fit. Only
// the dispatch point (dispatch.cpp) and its test read it; the solver sees "auto" resolved.
//
// device = "auto" takes a visible GPU (CUDA build) where one was measured at least 3x faster
// than one CPU core in the same run (bench/RESULTS.md: an H100, then an H200 on 2026-11-28
// after the CPU learned to certify its majorized start), by model and the number of stored
// design entries:
//   SCCS and conditional Poisson from 1e6 entries (1e6 cases x 200 drugs, 2.5e6 entries: 3.8x);
//   Cox with mostly distinct event times (at least kAutoDistinctEventShare of the events have
//     a time of their own, as with continuous times) from 5e7 (N = 1e6, P = 1000 at 5%: 4.3x;
//     1.7x at 1.5e7 and 1.07x at 5e6, where the CPU certifies its start with no cycle);
//   lr, pr and ls from 5e7 (N = 1e6, P = 1000: 5.3x; equal at N = 1e5);
//   clr with exact ties (its default) from 5e6 (1e5 rows in sets of 10 with 3 cases,
//     P = 1000: 17x); Breslow and Efron ties, not timed, stay on the CPU;
// otherwise the CPU: Fine-Gray (continuous times 2.1x at 5e7, 1.35x at 1.5e7, 3.5x slower at
// 5e6; whole days 4x slower at 5e6), survival with tied (whole-day) times (Cox 1.7x slower at
// 5e6), (start, stop] data (Cox at 5e6: 1.4x slower), smaller designs. Where the GPU then
// cannot take the fit (too little free memory), "auto" fits on the CPU. Never the emulated
// device.
#pragma once

#include <cstdint>

#include "data/dataset.h"
#include "solver/compute_device.h"

namespace argus {

constexpr std::int64_t kAutoConditionalEntries = 1000000;
constexpr std::int64_t kAutoConditionalLogisticEntries = 5000000;
constexpr std::int64_t kAutoCoxEntries = 50000000;
constexpr std::int64_t kAutoLargeEntries = 50000000;
constexpr double kAutoDistinctEventShare = 0.5;
// The device suite has passed on a GPU (an H100, then an H200: 171 of 171 run there; the other
// 4 are the emulated device's own), so "auto" may take the CUDA runner.
constexpr bool kCudaRunnerValidated = true;

// The measured part of the rule (above), whatever GPU is present.
bool autoPrefersCuda(const Dataset& data);
// The device a request resolves to: "auto" made concrete (ComputeDevice::automatic set),
// every other request unchanged.
ComputeDevice resolveComputeDevice(const ComputeDevice& device, const Dataset& data);

}  // namespace argus
