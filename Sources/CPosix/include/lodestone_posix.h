#ifndef LODESTONE_POSIX_H
#define LODESTONE_POSIX_H

#include <spawn.h>
#include <stddef.h>

/// Accepts a connection on `listener` with close-on-exec (and non-blocking when `nonblocking` is
/// non-zero) set atomically, so a command spawned by another thread at that moment never inherits it.
/// Returns the new descriptor, or -1 with errno set.
int lodestone_accept_cloexec(int listener, int nonblocking);

/// Adds "close every descriptor from `lowest` up" to a posix_spawn file-action list, so a spawned
/// command holds none of its parent's sockets or files (glibc 2.34 and later). Returns 0 or an errno.
int lodestone_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/// Fills `buffer` with `count` unpredictable bytes from the kernel (getrandom, else /dev/urandom).
/// Returns 0, or -1 when neither can be read.
int lodestone_random_bytes(void *buffer, size_t count);

/// Whether the system clock is kept synchronised (by NTP, chrony or systemd-timesyncd): 1 when the
/// kernel's STA_UNSYNC flag is clear, 0 when it is set, -1 when adjtimex cannot say.
int lodestone_clock_synchronised(void);

#endif
