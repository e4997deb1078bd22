// The two Linux calls Swift's Glibc module does not show (they need _GNU_SOURCE).
#define _GNU_SOURCE 1
#include <spawn.h>
#include <sys/socket.h>
#include "lodestone_posix.h"

int lodestone_accept_cloexec(int listener, int nonblocking) {
    return accept4(listener, 0, 0, SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0));
}

int lodestone_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
