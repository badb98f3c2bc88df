/* What one flush of the journal costs on this disk, for BENCHMARKS.md's room made ahead: a file
 * in the current folder (`flush-probe`, removed after), written and flushed as the journal is.
 *   flush append SIZE    2,000 times: SIZE bytes written at the end, fdatasync (the file grows)
 *   flush room SIZE      the same into a file made 8 MiB long with zeros and flushed first
 *   flush chunk KIB      20 times: KIB KiB of zeros written at the end, fdatasync (making room)
 * Prints the mean time of one round in µs (and the best, for chunk). 64 on bad usage. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  if (argc != 3 || atoi(argv[2]) <= 0) return 64;
  int chunk = strcmp(argv[1], "chunk") == 0, room = strcmp(argv[1], "room") == 0;
  if (!chunk && !room && strcmp(argv[1], "append") != 0) return 64;
  size_t size = (size_t)atoi(argv[2]) * (chunk ? 1024 : 1);
  int rounds = chunk ? 20 : 2000;
  char *bytes = malloc(size);
  if (!bytes) return 1;
  memset(bytes, chunk ? 0 : 'x', size);
  unlink("flush-probe");
  int fd = open("flush-probe", O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return 1;
  if (room) {
    char *zeros = calloc(1, 1 << 20);
    for (int i = 0; i < 8; i++)
      if (!zeros || pwrite(fd, zeros, 1 << 20, (off_t)i << 20) != 1 << 20) return 1;
    if (fdatasync(fd) != 0) return 1;
  }
  double total = 0, best = 1e12;
  for (int i = 0; i < rounds; i++) {
    double start = now_us();
    if (pwrite(fd, bytes, size, (off_t)i * size) != (ssize_t)size || fdatasync(fd) != 0) return 1;
    double took = now_us() - start;
    total += took;
    if (took < best) best = took;
  }
  unlink("flush-probe");
  if (chunk)
    printf("chunk %s KiB: %.0f µs a chunk (best %.0f)\n", argv[2], total / rounds, best);
  else
    printf("%s %zu bytes: %.1f µs a flush\n", argv[1], size, total / rounds);
  return 0;
}
