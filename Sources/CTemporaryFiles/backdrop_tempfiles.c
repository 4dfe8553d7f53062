// backdrop_tempfiles.c — see backdrop_tempfiles.h.
#include "backdrop_tempfiles.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

enum { slots = 256, longest = 4096 };

// 0 free, 1 being written, 2 holds a path. A slot is claimed by compare-and-swap, so threads (check --jobs) never
// share one; the handler reads only slots in state 2.
static int state[slots];
static char paths[slots][longest];

int bd_tempfile_remember(const char *path) {
    size_t length = strlen(path);
    if (length >= longest) return -1;
    for (int slot = 0; slot < slots; slot++) {
        int expected = 0;
        if (__atomic_compare_exchange_n(&state[slot], &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
            memcpy(paths[slot], path, length + 1);
            __atomic_store_n(&state[slot], 2, __ATOMIC_RELEASE);
            return slot;
        }
    }
    return -1;
}

void bd_tempfile_forget(int slot) {
    if (slot >= 0 && slot < slots) __atomic_store_n(&state[slot], 0, __ATOMIC_RELEASE);
}

static void remove_and_reraise(int signal_number) {
    for (int slot = 0; slot < slots; slot++) {
        if (__atomic_load_n(&state[slot], __ATOMIC_ACQUIRE) == 2) unlink(paths[slot]);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

void bd_tempfile_remove_on_signals(void) {
    const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction current;
        if (sigaction(signals[index], NULL, &current) != 0) continue;
        if (current.sa_handler != SIG_DFL) continue;  // ignored or handled by the program: leave it
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = remove_and_reraise;
        sigemptyset(&action.sa_mask);
        sigaction(signals[index], &action, NULL);
    }
}
