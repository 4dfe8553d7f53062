// thread-placement.c — where Linux starts a new thread, and what bd_thread_create's placement changes
// (docs/performance.md, "Helper threads on another core"). Not part of CI: a probe of the machine, not a check.
//
//   cc -O2 -o /tmp/thread-placement Benchmarks/thread-placement.c -lpthread && /tmp/thread-placement [ROUNDS]
//
// Each round the creator starts a thread and both then spin for 3 ms, as the PNG decoder's unfilterer and inflater
// do; on two idle cores both finish after a little over 3 ms. "plain": pthread_create as it is; "placed": the thread
// created allowed only the creator's other cores, then given back every core at once (bd_thread_create's way).
// Prints, per way, the median and the range over the rounds of the time until the new thread first runs and until
// both are done, in µs.
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void spin(double us) {
    volatile double x = 0;
    double start = now_us();
    while (now_us() - start < us) x += 1;
}

static double started;

static void *work(void *argument) {
    (void)argument;
    started = now_us();
    spin(3000);
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *way, double *first, double *done, int rounds) {
    qsort(first, rounds, sizeof *first, compare);
    qsort(done, rounds, sizeof *done, compare);
    printf("%-6s first runs after %5.0f µs (%.0f–%.0f), both done after %5.0f µs (%.0f–%.0f)\n", way,
           first[rounds / 2], first[0], first[rounds - 1], done[rounds / 2], done[0], done[rounds - 1]);
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 15;
    if (rounds < 1 || rounds > 1000) rounds = 15;
    double *first = malloc(sizeof(double) * rounds), *done = malloc(sizeof(double) * rounds);
    if (first == NULL || done == NULL) return 1;
    for (int placed = 0; placed <= 1; placed++) {
        for (int round = 0; round < rounds; round++) {
            usleep(20000);  // both cores idle again
            cpu_set_t allowed, others;
            sched_getaffinity(0, sizeof allowed, &allowed);
            others = allowed;
            CPU_CLR(sched_getcpu(), &others);
            pthread_attr_t attributes;
            pthread_attr_init(&attributes);
            if (placed && CPU_COUNT(&others) > 0) pthread_attr_setaffinity_np(&attributes, sizeof others, &others);
            pthread_t thread;
            double begin = now_us();
            if (pthread_create(&thread, &attributes, work, NULL) != 0) return 1;
            if (placed) pthread_setaffinity_np(thread, sizeof allowed, &allowed);
            pthread_attr_destroy(&attributes);
            spin(3000);
            pthread_join(thread, NULL);
            first[round] = started - begin;
            done[round] = now_us() - begin;
        }
        report(placed ? "placed" : "plain", first, done, rounds);
    }
    free(first);
    free(done);
    return 0;
}
