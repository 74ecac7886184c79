/* What waiting on several descriptors costs a loopback TCP round trip (docs/BENCHMARKS.md,
 * "link — what the round trip's wait costs"). Two threads, one on each of processors 0 and 1,
 * bounce 64 bytes over a loopback TCP connection (TCP_NODELAY), as sync-bench's raw baseline
 * does; each end waits for the other's bytes in one of six ways:
 *
 *   mode 0: a blocking read alone (sync-bench's raw_tcp_rtt_us);
 *   mode 1: poll on the socket, then read;
 *   mode 2: poll on the socket and two idle pipes (a node's control input and listener), then read;
 *   mode 3: epoll_wait on the same three, registered once, then read;
 *   mode 4: io_uring: a read of each idle pipe armed once and a recv on the socket, waited for
 *           with io_uring_enter; the completion brings the bytes (no read after it). Raw
 *           system calls, no liburing; prints "io_uring unavailable" where io_uring_setup is
 *           refused, and stops with an error where an operation is (kernels before 5.6);
 *   mode 5: as 4, and the write goes as a send queued in the same io_uring_enter that waits
 *           (its completion skipped on success, IOSQE_CQE_SKIP_SUCCESS, kernel 5.17): one
 *           system call a message at each end instead of two.
 *
 *   cc -O2 -o /tmp/poll-rtt scripts/poll-rtt.c -lpthread
 *   for i in 1 2 3 4 5; do for m in 0 1 2 3 4 5; do /tmp/poll-rtt $m; done; done
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
#include <linux/io_uring.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 100000, WARMUP = 1000, BYTES = 64 };
static int mode;
static int idle[2];  /* read ends of two pipes nobody writes to */

#ifndef IOSQE_CQE_SKIP_SUCCESS
#define IOSQE_CQE_SKIP_SUCCESS (1U << 6)
#endif
enum { TAG_RECV = 1, TAG_SEND = 2, TAG_PIPE = 100 };

static void fail(const char *what, int err) {
    fprintf(stderr, "poll-rtt: %s: %s\n", what, strerror(err));
    exit(1);
}

/* An io_uring's queues, mapped (modes 4 and 5). */
struct ring {
    int fd;
    unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
    unsigned to_submit;
};

struct end { int fd; int ep; struct ring r; char pipe_buf[2][8]; };  /* filled in place: the
                                                                       pipe reads point into it */

static int ring_init(struct ring *r) {
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    memset(r, 0, sizeof *r);
    r->fd = (int)syscall(__NR_io_uring_setup, 8, &p);
    if (r->fd < 0) return -1;
    size_t sq_bytes = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    size_t cq_bytes = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    size_t bytes = sq_bytes > cq_bytes ? sq_bytes : cq_bytes;  /* one mapping (IORING_FEAT_SINGLE_MMAP) */
    char *q = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
    if (q == MAP_FAILED || !(p.features & IORING_FEAT_SINGLE_MMAP)) return -1;
    r->sq_tail = (unsigned *)(q + p.sq_off.tail);
    r->sq_mask = (unsigned *)(q + p.sq_off.ring_mask);
    r->sq_array = (unsigned *)(q + p.sq_off.array);
    r->cq_head = (unsigned *)(q + p.cq_off.head);
    r->cq_tail = (unsigned *)(q + p.cq_off.tail);
    r->cq_mask = (unsigned *)(q + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(q + p.cq_off.cqes);
    r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                   r->fd, IORING_OFF_SQES);
    return r->sqes == MAP_FAILED ? -1 : 0;
}

/* Queues one operation (submitted at the next wait). */
static void ring_queue(struct ring *r, int op, int fd, void *buf, unsigned len, unsigned flags, unsigned long long tag) {
    unsigned tail = *r->sq_tail, i = tail & *r->sq_mask;
    struct io_uring_sqe *e = &r->sqes[i];
    memset(e, 0, sizeof *e);
    e->opcode = (unsigned char)op;
    e->flags = (unsigned char)flags;
    e->fd = fd;
    e->addr = (unsigned long long)(uintptr_t)buf;
    e->len = len;
    e->user_data = tag;
    r->sq_array[i] = i;
    __atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
    r->to_submit++;
}

/* Submits what is queued; waits for `wait` completions (0: none). */
static void ring_enter(struct ring *r, unsigned wait) {
    for (;;) {
        long n = syscall(__NR_io_uring_enter, r->fd, r->to_submit, wait, wait ? IORING_ENTER_GETEVENTS : 0, NULL, 0);
        if (n >= 0) { r->to_submit -= (unsigned)n; return; }
        if (errno != EINTR) fail("io_uring_enter", errno);
    }
}

/* Submits what is queued and waits for the recv's completion: its result. A send completes
 * only when it fails (its success is skipped), and an idle pipe never: either stops the run. */
static int ring_wait_recv(struct ring *r) {
    for (;;) {
        unsigned head = *r->cq_head;
        unsigned tail = __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE);
        while (head != tail) {
            struct io_uring_cqe *c = &r->cqes[head & *r->cq_mask];
            int res = c->res;
            unsigned long long got = c->user_data;
            head++;
            __atomic_store_n(r->cq_head, head, __ATOMIC_RELEASE);
            if (got == TAG_RECV) return res;
            if (got == TAG_SEND) fail("io_uring send", res < 0 ? -res : EIO);
            fail("an idle pipe's read completed", res < 0 ? -res : EIO);
        }
        ring_enter(r, 1);
    }
}

static void pin(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static void make_end(struct end *e, int fd) {
    memset(e, 0, sizeof *e);
    e->fd = fd;
    e->ep = -1;
    if (mode >= 4) {
        if (ring_init(&e->r)) { printf("io_uring unavailable\n"); exit(0); }
        for (int i = 0; i < 2; i++)
            ring_queue(&e->r, IORING_OP_READ, idle[i], e->pipe_buf[i], sizeof e->pipe_buf[i], 0, TAG_PIPE + i);
    }
    if (mode == 3) {
        e->ep = epoll_create1(0);
        int fds[3] = { fd, idle[0], idle[1] };
        for (int i = 0; i < 3; i++) {
            struct epoll_event ev = { .events = EPOLLIN, .data.fd = fds[i] };
            epoll_ctl(e->ep, EPOLL_CTL_ADD, fds[i], &ev);
        }
    }
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
        ssize_t r;
        if (mode >= 4) {
            ring_queue(&e->r, IORING_OP_RECV, e->fd, b + got, BYTES - got, 0, TAG_RECV);
            r = ring_wait_recv(&e->r);
            if (r < 0) fail("io_uring recv", (int)-r);
        } else {
            wait_readable(e);
            r = read(e->fd, b + got, BYTES - got);
            if (r < 0 && errno != EINTR) fail("read", errno);
        }
        if (r == 0) fail("read", ECONNRESET);
        if (r > 0) got += (int)r;
    }
}

/* Sends the 64 bytes: a write, or (mode 5) a send submitted with the next wait. */
static void send_bytes(struct end *e, char *b) {
    if (mode == 5) { ring_queue(&e->r, IORING_OP_SEND, e->fd, b, BYTES, IOSQE_CQE_SKIP_SUCCESS, TAG_SEND); return; }
    if (write(e->fd, b, BYTES) != BYTES) fail("write", errno);
}

static void *echo(void *arg) {
    struct end e;
    make_end(&e, *(int *)arg);
    pin(1);
    char b[BYTES];
    for (int i = 0; i < ROUNDS + WARMUP; i++) {
        read_fully(&e, b);
        send_bytes(&e, b);
    }
    if (mode == 5) ring_enter(&e.r, 0);  /* the last send */
    return NULL;
}

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

int main(int argc, char **argv) {
    mode = argc == 2 ? atoi(argv[1]) : -1;
    if (mode < 0 || mode > 5) { fprintf(stderr, "usage: poll-rtt 0|1|2|3|4|5\n"); return 2; }
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
    struct end e;
    make_end(&e, c);
    char b[BYTES] = { 0 };
    for (int i = 0; i < WARMUP; i++) { send_bytes(&e, b); read_fully(&e, b); }
    long t0 = now_ns();
    for (int i = 0; i < ROUNDS; i++) { send_bytes(&e, b); read_fully(&e, b); }
    long t1 = now_ns();
    pthread_join(t, NULL);
    printf("mode=%d rtt=%.2f us\n", mode, (t1 - t0) / 1000.0 / ROUNDS);
    return 0;
}
