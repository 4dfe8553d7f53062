// backdrop_tempfiles.h — temporary files removed when a signal stops the process before they are renamed.
//
// AtomicFile writes each output to a temporary file beside it and renames it into place. A command stopped by
// Ctrl-C (SIGINT), SIGTERM or SIGHUP in between would leave the hidden temporary file behind (up to 75 MB for a
// large render). Registered paths are removed by a handler that does only async-signal-safe work
// (unlink), then the signal's default action runs, so the exit status is the signal's as before.
#ifndef BACKDROP_TEMPFILES_H
#define BACKDROP_TEMPFILES_H

#ifdef __cplusplus
extern "C" {
#endif

/// Remembers `path` (copied; at most 4095 bytes) until bd_tempfile_forget. Returns a slot number, or -1 when every
/// one of the 256 slots is taken or the path is too long (the file is then simply not removed on a signal).
int bd_tempfile_remember(const char *path);

/// Forgets the path in `slot` (after the rename, or after the file was removed). -1 is ignored.
void bd_tempfile_forget(int slot);

/// Installs the handler for SIGINT, SIGTERM, SIGHUP and SIGXFSZ (a write past `ulimit -f`), keeping any handler or ignore already set for a signal
/// (a program that handles the signal itself keeps doing so).
void bd_tempfile_remove_on_signals(void);

#ifdef __cplusplus
}
#endif

#endif
