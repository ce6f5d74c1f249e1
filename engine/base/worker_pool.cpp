#include "engine/base/worker_pool.hpp"

#include <algorithm>

WorkerPool::WorkerPool(int threads) {
  for (int i = 1; i < threads; i++) workers_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  batch_started_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int WorkerPool::available_threads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return 1;  // this build has no threads (the page's plain build, for pages that are not cross-origin isolated)
#else
  return std::max(1, int(std::thread::hardware_concurrency()));
#endif
}

void WorkerPool::take_jobs() {
  for (int i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) job_(context_, i);
}

void WorkerPool::run(int count, void (*job)(void* context, int index), void* context) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    count_ = count;
    job_ = job;
    context_ = context;
    next_.store(0);
    busy_.store(int(workers_.size()));
    batch_++;
  }
  batch_started_.notify_all();
  take_jobs();
  // Every worker must have left the batch (not only finished its jobs) before the next one resets next_.
#ifdef __EMSCRIPTEN__
  // The caller is the page's main thread, which the browser does not let sleep: emscripten would spin inside the
  // condition variable anyway (and print a warning). Spin here, for the last member of a frame's slice.
  while (busy_.load() != 0) {}
#else
  std::unique_lock<std::mutex> lock(mutex_);
  batch_finished_.wait(lock, [this] { return busy_.load() == 0; });
#endif
}

void WorkerPool::work() {
  long seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      batch_started_.wait(lock, [&] { return stopping_ || batch_ != seen; });
      if (stopping_) return;
      seen = batch_;
    }
    take_jobs();
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0) batch_finished_.notify_one();
  }
}
