// backdrop_threads.c — see backdrop_threads.h.
#define _GNU_SOURCE  // CPU_SET, sched_getcpu, pthread_attr_setaffinity_np
#include "backdrop_threads.h"

#include <sched.h>
#include <stdlib.h>

typedef struct {
    void *(*start)(void *);
    void *argument;
#if defined(__linux__)
    cpu_set_t allowed;  // the creator's affinity, restored by the thread
#endif
    int restore;
} bd_thread_start;

static void *bd_thread_begin(void *context) {
    bd_thread_start start = *(bd_thread_start *)context;
    free(context);
#if defined(__linux__)
    if (start.restore) pthread_setaffinity_np(pthread_self(), sizeof start.allowed, &start.allowed);
#endif
    return start.start(start.argument);
}

int bd_thread_create(pthread_t *thread, void *(*start)(void *), void *argument) {
    bd_thread_start *context = (bd_thread_start *)malloc(sizeof *context);
    if (context == NULL) return pthread_create(thread, NULL, start, argument);
    context->start = start;
    context->argument = argument;
    context->restore = 0;
    pthread_attr_t attributes;
    int have_attributes = pthread_attr_init(&attributes) == 0;
#if defined(__linux__)
    int here = sched_getcpu();
    if (have_attributes && here >= 0 && here < CPU_SETSIZE
        && sched_getaffinity(0, sizeof context->allowed, &context->allowed) == 0) {
        cpu_set_t others = context->allowed;
        CPU_CLR(here, &others);
        if (CPU_COUNT(&others) > 0 && pthread_attr_setaffinity_np(&attributes, sizeof others, &others) == 0)
            context->restore = 1;
    }
#endif
    int result = pthread_create(thread, have_attributes ? &attributes : NULL, bd_thread_begin, context);
    if (have_attributes) pthread_attr_destroy(&attributes);
    if (result != 0) free(context);
    return result;
}
