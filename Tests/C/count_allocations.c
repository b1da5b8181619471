/*
 * LD_PRELOAD=count_allocations.so PROGRAM ...: counts the heap allocations made on the process's main thread and
 * prints "main-thread allocations: N" to standard error at exit. Worker threads are left out: their number and
 * timing vary from run to run, where a renderer's frame loop on the main thread (threads = 1) is deterministic,
 * so two runs differing only in their number of frames show what a frame allocates.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static long allocations;

static void count(void) {
    if (syscall(SYS_gettid) == getpid()) allocations++;
}

void *malloc(size_t size) {
    count();
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count();
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count();
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    count();
    *result = __libc_memalign(alignment, size);
    return *result ? 0 : 12; /* ENOMEM */
}

void *aligned_alloc(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count();
    return __libc_memalign(alignment, size);
}

__attribute__((destructor)) static void report(void) {
    fprintf(stderr, "main-thread allocations: %ld\n", allocations);
}
