/* What waiting on several descriptors costs a loopback TCP round trip (docs/BENCHMARKS.md,
 * "link — what the round trip's wait costs"). Two threads, one on each of processors 0 and 1,
 * bounce 64 bytes over a loopback TCP connection (TCP_NODELAY), as sync-bench's raw baseline
 * does; each end waits for the other's bytes in one of four ways before it reads:
 *
 *   mode 0: a blocking read alone (sync-bench's raw_tcp_rtt_us);
 *   mode 1: poll on the socket, then read;
 *   mode 2: poll on the socket and two idle pipes (a node's control input and listener), then read;
 *   mode 3: epoll_wait on the same three, registered once, then read.
 *
 *   cc -O2 -o /tmp/poll-rtt scripts/poll-rtt.c -lpthread
 *   for i in 1 2 3 4 5; do for m in 0 1 2 3; do /tmp/poll-rtt $m; done; done
 *
 * Prints the mean round trip of 100,000 after 1,000 of warm-up. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 100000, WARMUP = 1000, BYTES = 64 };
static int mode;
static int idle[2];  /* read ends of two pipes nobody writes to */

struct end { int fd; int ep; };

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static struct end make_end(int fd) {
    struct end e = { fd, -1 };
    if (mode == 3) {
        e.ep = epoll_create1(0);
        int fds[3] = { fd, idle[0], idle[1] };
        for (int i = 0; i < 3; i++) {
            struct epoll_event ev = { .events = EPOLLIN, .data.fd = fds[i] };
            epoll_ctl(e.ep, EPOLL_CTL_ADD, fds[i], &ev);
        }
    }
    return e;
}

static void wait_readable(struct end *e) {
    if (mode == 1) {
        struct pollfd p[1] = { { e->fd, POLLIN, 0 } };
        poll(p, 1, 1000);
    } else if (mode == 2) {
        struct pollfd p[3] = { { idle[0], POLLIN, 0 }, { idle[1], POLLIN, 0 }, { e->fd, POLLIN, 0 } };
        poll(p, 3, 1000);
    } else if (mode == 3) {
        struct epoll_event ev[4];
        epoll_wait(e->ep, ev, 4, 1000);
    }
}

static void read_fully(struct end *e, char *b) {
    int got = 0;
    while (got < BYTES) {
        wait_readable(e);
        ssize_t r = read(e->fd, b + got, BYTES - got);
        if (r > 0) got += (int)r;
    }
}

static void *echo(void *arg) {
    struct end e = make_end(*(int *)arg);
    pin(1);
    char b[BYTES];
    for (int i = 0; i < ROUNDS + WARMUP; i++) {
        read_fully(&e, b);
        if (write(e.fd, b, BYTES) != BYTES) return NULL;
    }
    return NULL;
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: poll-rtt 0|1|2|3\n"); return 2; }
    mode = atoi(argv[1]);
    int p0[2], p1[2];
    if (pipe(p0) || pipe(p1)) return 1;
    idle[0] = p0[0];
    idle[1] = p1[0];
    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t al = sizeof a;
    if (bind(l, (void *)&a, sizeof a) || listen(l, 1) || getsockname(l, (void *)&a, &al)) return 1;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(c, (void *)&a, sizeof a)) return 1;
    int s = accept(l, NULL, NULL), one = 1;
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    pthread_t t;
    pthread_create(&t, NULL, echo, &s);
    pin(0);
    struct end e = make_end(c);
    char b[BYTES] = { 0 };
    for (int i = 0; i < WARMUP; i++) { if (write(c, b, BYTES) != BYTES) return 1; read_fully(&e, b); }
    long t0 = now_ns();
    for (int i = 0; i < ROUNDS; i++) { if (write(c, b, BYTES) != BYTES) return 1; read_fully(&e, b); }
    long t1 = now_ns();
    pthread_join(t, NULL);
    printf("mode=%d rtt=%.2f us\n", mode, (t1 - t0) / 1000.0 / ROUNDS);
    return 0;
}
