// backdrop_openmp.c — the only OpenMP code in Backdrop. No omp.h needed:
// the pragma is compiled by clang's -fopenmp; the runtime is libomp5.
#include "backdrop_openmp.h"

extern int omp_get_max_threads(void);

void bd_openmp_parallel_for(int64_t count, int32_t threads, void *context,
                            void (*body)(void *context, int64_t index)) {
    if (threads < 1) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t index = 0; index < count; index++) {
        body(context, index);
    }
}

int32_t bd_openmp_max_threads(void) { return (int32_t)omp_get_max_threads(); }
