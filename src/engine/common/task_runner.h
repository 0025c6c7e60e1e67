// Runs many independent tasks (cross-validation folds, bootstrap replicates, profile
// points: whole fits) on a few threads that share one copy of the data.
//
// runTasks(n, threads, task, progress) calls task(i, sink) once for each i in 0..n-1.
//  - Determinism: a task must depend only on its index and on data it does not share for
//    writing (it writes its result into its own slot). Which thread runs it, and when, then
//    cannot change any result, and callers combine the slots in index order afterwards.
//  - threads == 1 runs the tasks in order on the calling thread.
//  - threads > 1 starts that many workers that take the next index from an atomic counter.
//    The calling thread only waits: every `pollMillis` it checks for a user interrupt
//    (ProgressSink::checkInterrupt, which the R bridge implements with the R API and so must
//    stay on this thread) and reports how many tasks are done. An interrupt stops workers
//    from taking new tasks, and fits in flight stop at their next cycle.
//  - The `sink` handed to a task is for its fit (fitCcd()): its checkInterrupt() throws once
//    the run is cancelled, its message() does nothing (the R API is not thread-safe).
//  - An exception thrown by a task is rethrown on the calling thread after the workers have
//    stopped; with several, the one of the lowest task index, as a sequential run would.
#pragma once

#include <cstddef>
#include <functional>

#include "common/progress_sink.h"

namespace argus {

using Task = std::function<void(std::size_t index, ProgressSink* sink)>;
using TasksDone = std::function<void(std::size_t done)>;

void runTasks(std::size_t nTasks, int threads, const Task& task, ProgressSink* progress,
              const TasksDone& onProgress = {}, int pollMillis = 100);

}  // namespace argus
