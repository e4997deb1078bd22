// The Linux calls Swift's Glibc module does not show (they need _GNU_SOURCE or extra headers).
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/timex.h>
#include <unistd.h>
#include "lodestone_posix.h"

int lodestone_accept_cloexec(int listener, int nonblocking) {
    return accept4(listener, 0, 0, SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0));
}

int lodestone_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int lodestone_random_bytes(void *buffer, size_t count) {
    unsigned char *out = buffer;
    size_t got = 0;
    while (got < count) {
        ssize_t n = getrandom(out + got, count - got, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (got == count) return 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    while (got < count) {
        ssize_t n = read(fd, out + got, count - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { close(fd); return -1; }
        got += (size_t)n;
    }
    close(fd);
    return 0;
}

int lodestone_clock_synchronised(void) {
    struct timex tx = {0};
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return (tx.status & STA_UNSYNC) ? 0 : 1;
}
