// A fixed set of threads that run a batch of independent jobs (sweep members) and wait until all are done.
//
// Sweep members share nothing they write (each member owns its buffers; the data and the spec are read-only), so they
// can step on different threads and every member computes exactly the numbers it computes alone. The pool starts
// its threads once and reuses them for every batch: a batch allocates nothing and starts no thread.
//
// The caller's thread takes part in every batch. In the browser that is the page's main thread: it cannot sleep,
// so its wait for the last job is a busy wait, and a batch should be short (the page's frame slice).
#pragma once
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

class WorkerPool {
 public:
  // `threads` counts the caller's: 1 starts no thread and runs every job on the caller.
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return int(workers_.size()) + 1; }
  // Calls job(context, i) once for every i in [0, count), spread over the threads; returns when all have returned.
  // A job must not throw (Runner's jobs catch their members' exceptions).
  void run(int count, void (*job)(void* context, int index), void* context);

  // How many threads this program can use: the machine's cores (the browser's navigator.hardwareConcurrency in a
  // threaded wasm build), and 1 in a wasm build without threads.
  static int available_threads();

 private:
  void work();       // a worker thread's loop: wait for a batch, take jobs, report back
  void take_jobs();  // runs jobs of the current batch until none is left

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable batch_started_, batch_finished_;
  long batch_ = 0;     // counts batches; a worker starts one when it sees this change
  std::atomic<int> busy_{0};  // workers still inside the current batch
  bool stopping_ = false;
  int count_ = 0;
  void (*job_)(void*, int) = nullptr;
  void* context_ = nullptr;
  std::atomic<int> next_{0};  // the next job index to hand out
};
