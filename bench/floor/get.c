/* The floor of a one-shot client on this machine, for bench/run's one-shot rows: connect to
 * badged's Unix socket, send `GET <channel>`, copy the reply to standard output until its
 * status line, exit. Built static (`cc -static -O2`), so that no dynamic loader runs: what is
 * left is exec, the socket's round trip and exit.
 *   get SOCKET CHANNEL    exit 0 on `OK`, 1 on `ERR` or a broken connection, 64 on bad usage */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3 || strlen(argv[1]) >= sizeof(((struct sockaddr_un *)0)->sun_path)) return 64;
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strcpy(address.sun_path, argv[1]);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) < 0) return 1;
  char request[256];
  size_t length = strlen(argv[2]);
  if (length > sizeof request - 5) return 64;
  memcpy(request, "GET ", 4);
  memcpy(request + 4, argv[2], length);
  request[4 + length] = '\n';
  if (write(fd, request, length + 5) != (ssize_t)(length + 5)) return 1;
  /* The reply ends with a line `OK` or `ERR …`; everything before it is data. */
  char reply[4096];
  size_t used = 0;
  for (;;) {
    ssize_t got = read(fd, reply + used, sizeof reply - used);
    if (got <= 0) return 1;
    used += (size_t)got;
    char *line = reply, *end;
    while ((end = memchr(line, '\n', used - (size_t)(line - reply)))) {
      size_t size = (size_t)(end - line) + 1;
      if (size == 3 && memcmp(line, "OK\n", 3) == 0) return 0;
      if (size >= 4 && memcmp(line, "ERR", 3) == 0) return 1;
      if (write(STDOUT_FILENO, line, size) != (ssize_t)size) return 1;
      line = end + 1;
    }
    used -= (size_t)(line - reply);
    memmove(reply, line, used);
    if (used == sizeof reply) return 1;
  }
}
