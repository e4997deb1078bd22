/*
 * The floor under `live.serve_rss`: a plain C loop that makes the system calls `lodestone serve
 * --rate 50` makes with four sinks, and nothing else (no sensor, no filter, no formatting). Each
 * update: one timed sigtimedwait (the loop's sleep), one send of NMEA-sized bytes to the TCP client,
 * one UDP datagram of a Signal K delta's size, one MQTT 3.1.1 PUBLISH of a heading's size to the
 * broker. Every quarter second (serve's turn): one accept4 and one recv (both finding nothing) and
 * one write of the JSON lines gathered since to a file. `lodestone-bench live.c_floor` runs it
 * against the same consumers as `live.serve_rss` (its TCP client and UDP socket, a local mosquitto)
 * and reports it; what serve costs above it is Lodestone's own work.
 *
 * Build:  cc -O2 -o .build/bench/live_floor Benchmarks/c/live_floor.c
 * Usage:  live_floor RATE SECONDS TCP_PORT UDP_PORT MQTT_PORT JSON_PATH   (MQTT_PORT 0: no MQTT)
 *         live_floor log RATE SECONDS CSV_PATH
 * Prints one JSON line with the CPU (every thread, user + system) per update and the share of a
 * core, over the steady part (from 2 s in), as live.serve_rss measures serve.
 *
 * The `log` form is the floor under `live.log_100hz_binary` (`live.c_floor_log`): what `lodestone
 * log --rate RATE` cannot do without, one wake-up per row (the chip makes a sample per row, and it
 * is read when it is made), a timed sigtimedwait, and the rows appended to the file every 0.4 s
 * (a row of the log's size), an fsync every second.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double monotonic(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

/* A blocking MQTT 3.1.1 CONNECT (clean session, keep-alive 30 s) and its CONNACK; -1 on failure. */
static int mqtt_connect(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = loopback(port);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) return -1;
    static const unsigned char hello[] = {0x10, 24, 0, 4, 'M', 'Q', 'T', 'T', 4, 0x02, 0, 30, 0, 12,
                                          'l', 'i', 'v', 'e', '-', 'f', 'l', 'o', 'o', 'r', '-', 'c'};
    unsigned char ack[4];
    if (write(fd, hello, sizeof hello) != (ssize_t)sizeof hello || read(fd, ack, 4) != 4 || ack[0] != 0x20 || ack[3] != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

/* Sleeps until monotonic time `when`, as the live loop does (a timed sigtimedwait on the blocked stop
 * signals); 1 when a stop signal came. */
static int sleep_until(const sigset_t *stops, double when) {
    double wait = when - monotonic();
    if (wait <= 0) return 0;
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    siginfo_t info;
    return sigtimedwait(stops, &info, &ts) > 0;
}

/* `live_floor log RATE SECONDS CSV_PATH`: one wake-up per row, the rows written every 0.4 s. */
static int log_floor(double rate, double seconds, const char *path) {
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_BLOCK, &stops, NULL);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        perror("live_floor: open");
        return 74;
    }
    /* The size of a `log` row (measured: about 330 bytes with the simulated sensor). */
    static char rows[64 * 1024];
    memset(rows, '1', sizeof rows);
    size_t gathered = 0;
    int steady_rows = 0, total = (int)(seconds * rate);
    long write_every = (long)(rate * 0.4 + 0.5), sync_every = (long)(rate + 0.5);
    double start = monotonic(), steady_from = start + 2, cpu0 = 0, wall0 = 0;
    for (int k = 1; k <= total; k++) {
        if (sleep_until(&stops, start + k / rate)) break;
        if (steady_rows == 0 && cpu0 == 0 && monotonic() >= steady_from) cpu0 = cpu(), wall0 = monotonic();
        if (gathered + 330 <= sizeof rows) gathered += 330;
        if (cpu0 > 0) steady_rows++;
        if (k % write_every == 0 && gathered > 0 && write(fd, rows, gathered) > 0) gathered = 0;
        if (k % sync_every == 0) fdatasync(fd);
    }
    close(fd);
    double used = cpu() - cpu0, wall = monotonic() - wall0;
    if (steady_rows == 0 || wall <= 0) {
        fprintf(stderr, "live_floor: too short a run\n");
        return 65;
    }
    printf("{\"us_per_row\": %.1f, \"cpu_percent\": %.3f, \"rows\": %d}\n", used * 1e6 / steady_rows, 100 * used / wall, total);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && strcmp(argv[1], "log") == 0) return log_floor(atof(argv[2]), atof(argv[3]), argv[4]);
    if (argc != 7) {
        fprintf(stderr, "usage: live_floor RATE SECONDS TCP_PORT UDP_PORT MQTT_PORT JSON_PATH\n"
                        "       live_floor log RATE SECONDS CSV_PATH\n");
        return 64;
    }
    double rate = atof(argv[1]), seconds = atof(argv[2]);
    int tcp_port = atoi(argv[3]), udp_port = atoi(argv[4]), mqtt_port = atoi(argv[5]);
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigprocmask(SIG_BLOCK, &stops, NULL);

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = loopback(tcp_port);
    if (bind(listener, (struct sockaddr *)&a, sizeof a) != 0 || listen(listener, 16) != 0) {
        perror("live_floor: listen");
        return 69;
    }
    int udp = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    a = loopback(udp_port);
    connect(udp, (struct sockaddr *)&a, sizeof a);
    int mqtt = mqtt_port > 0 ? mqtt_connect(mqtt_port) : -1;
    if (mqtt_port > 0 && mqtt < 0) {
        fprintf(stderr, "live_floor: no MQTT broker on port %d\n", mqtt_port);
        return 69;
    }
    int json = open(argv[6], O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);

    /* The sizes serve sends (measured): NMEA 118 B a client, a Signal K delta 420 B, a heading's
     * PUBLISH 446 B, a JSON line about 700 B. */
    static char nmea[118], delta[420], publish[446], lines[64 * 1024];
    memset(nmea, '$', sizeof nmea);
    memset(delta, '{', sizeof delta);
    memset(publish, 'x', sizeof publish);
    publish[0] = 0x30, publish[1] = (char)(0x80 | ((sizeof publish - 3) & 0x7F)), publish[2] = (char)((sizeof publish - 3) >> 7);
    publish[3] = 0, publish[4] = 12;
    memcpy(publish + 5, "floor/headin", 12);
    size_t gathered = 0;

    int client = -1, updates = 0, steady_updates = 0;
    long turn_every = (long)(rate / 4 + 0.5);
    double start = monotonic(), steady_from = start + 2, cpu0 = 0, wall0 = 0;
    int total = (int)(seconds * rate);
    char scratch[1024];
    for (int k = 1; k <= total; k++) {
        if (sleep_until(&stops, start + k / rate)) break;
        if (steady_updates == 0 && monotonic() >= steady_from) cpu0 = cpu(), wall0 = monotonic();
        if (client >= 0) send(client, nmea, sizeof nmea, MSG_DONTWAIT | MSG_NOSIGNAL);
        send(udp, delta, sizeof delta, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (mqtt >= 0) send(mqtt, publish, sizeof publish, MSG_DONTWAIT | MSG_NOSIGNAL);
        if (gathered + 700 <= sizeof lines) gathered += 700;
        updates++;
        if (cpu0 > 0) steady_updates++;
        if (k % turn_every == 0) {
            int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0) {
                if (client >= 0) close(client);
                client = fd;
                setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            }
            if (client >= 0) recv(client, scratch, sizeof scratch, MSG_DONTWAIT);
            if (json >= 0 && gathered > 0 && write(json, lines, gathered) > 0) gathered = 0;
        }
    }
    double used = cpu() - cpu0, wall = monotonic() - wall0;
    if (steady_updates == 0 || wall <= 0) {
        fprintf(stderr, "live_floor: too short a run\n");
        return 65;
    }
    printf("{\"us_per_update\": %.1f, \"cpu_percent\": %.3f, \"updates\": %d, \"client\": %s, \"mqtt\": %s}\n",
           used * 1e6 / steady_updates, 100 * used / wall, updates, client >= 0 ? "true" : "false", mqtt >= 0 ? "true" : "false");
    return 0;
}
