// backdrop_threads.h — starting a helper thread on another core.
//
// Why: on the 2-core virtual machine the benchmarks run on, Linux queued a new thread on its creator's core, and the
// other core, idle, took it over only 0.8–3 ms later, or never while the creator stayed busy: two 3 ms loops, one
// on a new thread, ended after 3.9–6.1 ms rather than 3.1 (a C probe, eight runs). The PNG decoder's inflater and
// the encoder's helpers are each such a thread, started as the caller gets busy.
#ifndef BACKDROP_THREADS_H
#define BACKDROP_THREADS_H

#include <pthread.h>

/// pthread_create(thread, NULL, start, argument), the thread first allowed only the calling thread's other cores
/// and, once it runs, every core the calling thread may use (the affinity it would have inherited), so that it starts
/// on an idle core but is then scheduled as any other. Where the caller may use one core only, or its affinity
/// cannot be read, it is a plain pthread_create. Returns pthread_create's result.
int bd_thread_create(pthread_t *thread, void *(*start)(void *), void *argument);

#endif
