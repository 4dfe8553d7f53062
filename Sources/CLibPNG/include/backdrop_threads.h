// backdrop_threads.h — starting a helper thread on another core.
//
// Why (docs/performance.md, "Helper threads on another core"): on the 2-core virtual machine the benchmarks run on,
// Linux queued a new thread on its creator's core, and the idle core took it over only milliseconds later, or not
// before the creator stopped. The PNG decoder's inflater and the encoder's helpers are each such a thread, started
// as the caller gets busy.
#ifndef BACKDROP_THREADS_H
#define BACKDROP_THREADS_H

#include <pthread.h>

/// pthread_create(thread, NULL, start, argument), the thread created allowed only the calling thread's other cores,
/// so that Linux places it on one of them, and then, before this returns, every core the calling thread may use
/// (the affinity it would have inherited), so that it is scheduled as any other. Where the caller may use one core
/// only, its affinity cannot be read or a thread cannot be created so, it is a plain pthread_create. Returns
/// pthread_create's result.
int bd_thread_create(pthread_t *thread, void *(*start)(void *), void *argument);

#endif
