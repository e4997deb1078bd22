#ifndef LODESTONE_POSIX_H
#define LODESTONE_POSIX_H

#include <spawn.h>

/// Accepts a connection on `listener` with close-on-exec (and non-blocking when `nonblocking` is
/// non-zero) set atomically, so a command spawned by another thread at that moment never inherits it.
/// Returns the new descriptor, or -1 with errno set.
int lodestone_accept_cloexec(int listener, int nonblocking);

/// Adds "close every descriptor from `lowest` up" to a posix_spawn file-action list, so a spawned
/// command holds none of its parent's sockets or files (glibc 2.34 and later). Returns 0 or an errno.
int lodestone_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
