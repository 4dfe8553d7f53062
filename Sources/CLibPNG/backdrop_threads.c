// backdrop_threads.c — see backdrop_threads.h.
#define _GNU_SOURCE  // CPU_CLR, CPU_COUNT, sched_getcpu, pthread_attr_setaffinity_np, pthread_setaffinity_np
#include "backdrop_threads.h"

#include <sched.h>

int bd_thread_create(pthread_t *thread, void *(*start)(void *), void *argument) {
#if defined(__linux__)
    cpu_set_t allowed, others;
    int here = sched_getcpu();
    pthread_attr_t attributes;
    if (here >= 0 && here < CPU_SETSIZE && sched_getaffinity(0, sizeof allowed, &allowed) == 0) {
        others = allowed;
        CPU_CLR(here, &others);
        if (CPU_COUNT(&others) > 0 && pthread_attr_init(&attributes) == 0) {
            int result = pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0
                             ? pthread_create(thread, &attributes, start, argument)
                             : -1;
            pthread_attr_destroy(&attributes);
            if (result == 0) {
                // Placed on another core; from now on free to run on any the creator may use, so that a busy
                // other core never keeps it from the creator's, idle while it waits.
                pthread_setaffinity_np(*thread, sizeof allowed, &allowed);
                return 0;
            }
        }
    }
#endif
    return pthread_create(thread, NULL, start, argument);
}
