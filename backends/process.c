/*
 * process.c - the one way pkc runs a program (CMake, the compiler, the
 * linker): an argument vector through posix_spawnp, never a shell, so no
 * character of a path is ever interpreted; output appended to the build log,
 * and a failure recorded there with its cause and command (pkb_show_errors
 * prints it).
 */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np (glibc 2.29) */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pkb_priv.h"

extern char **environ;

/* The marker of a failure record in the log (pkb_show_errors finds it). */
#define FAILED "pkc: this command failed: "

static bool plain_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         strchr("@%+=:,./_-", c);
}

/* Appends arg as one shell word ('...' where needed, $'...' with escapes
 * where it holds control characters): the log line is one line and can be
 * pasted into a shell. */
static void put_word(pkb_buf *b, const char *arg) {
  bool plain = *arg != 0, ctrl = false;
  for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
    plain = plain && plain_char(*p);
    ctrl = ctrl || *p < 32 || *p == 127;
  }
  if (plain) {
    pkb_put(b, arg);
    return;
  }
  pkb_put(b, ctrl ? "$'" : "'");
  for (const unsigned char *p = (const unsigned char *)arg; *p; p++) {
    if (*p == '\'')
      pkb_put(b, ctrl ? "\\'" : "'\\''");
    else if (ctrl && *p == '\\')
      pkb_put(b, "\\\\");
    else if (ctrl && *p == '\n')
      pkb_put(b, "\\n");
    else if (ctrl && (*p < 32 || *p == 127))
      pkb_putf(b, "\\x%02x", *p);
    else
      pkb_putf(b, "%c", *p);
  }
  pkb_put(b, "'");
}

/* argv as one line of shell words (quoted where needed; malloc'd). */
static char *command_text(char *const argv[]) {
  pkb_buf b;
  pkb_buf_init(&b);
  for (int i = 0; argv[i]; i++) {
    if (i)
      pkb_put(&b, " ");
    put_word(&b, argv[i]);
  }
  char *s = strdup(b.data ? b.data : "");
  pkb_buf_free(&b);
  return s;
}

static void append(const char *log, const char *a, const char *b, const char *c) {
  FILE *lf = fopen(log, "a");
  if (lf) {
    fprintf(lf, "%s%s%s\n", a, b, c);
    fclose(lf);
  }
}

/* Why argv could not start: "'g++' not found on PATH" and the like. */
static void cause_of_spawn_error(char *out, size_t n, const char *prog, int err) {
  if (err == ENOENT && !strchr(prog, '/'))
    snprintf(out, n, "'%s' not found on PATH (%s)", prog, getenv("PATH") ? getenv("PATH") : "");
  else
    snprintf(out, n, "cannot run '%s': %s", prog, strerror(err));
}

static int spawn_wait(char *const argv[], const char *cwd, const char *log, int *err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_APPEND | O_CREAT, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (cwd)
    posix_spawn_file_actions_addchdir_np(&fa, cwd);
  pid_t pid;
  *err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (*err != 0)
    return -1;
  int st;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      *err = errno;
      return -1;
    }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int pkb_run_logged(char *const argv[], const char *cwd, const char *log, int verbosity) {
  char *cmd = command_text(argv);
  append(log, "$ ", cmd, "");
  if (verbosity > 0)
    fprintf(stderr, "pkc: $ %s\n", cmd);
  int err = 0;
  int rc = spawn_wait(argv, cwd, log, &err);
  char cause[4400] = "";
  if (rc < 0 && cwd && err == ENOENT && access(cwd, F_OK) != 0)
    snprintf(cause, sizeof cause, "cannot enter %s: %s", cwd, strerror(err));
  else if (rc < 0)
    cause_of_spawn_error(cause, sizeof cause, argv[0], err);
  else if (rc > 128)
    snprintf(cause, sizeof cause, "'%s' was killed by signal %d", argv[0], rc - 128);
  else if (rc > 0)
    snprintf(cause, sizeof cause, "'%s' exited with status %d", argv[0], rc);
  if (rc != 0)
    append(log, FAILED, cause, "");
  free(cmd);
  return rc;
}

/* Prints the last max lines of text[from, to), indented. */
static void print_lines(const char *from, const char *to, int max) {
  const char *p = to;
  for (int n = 0; p > from; p--)
    if (p[-1] == '\n' && ++n == max)
      break;
  while (p < to) {
    const char *nl = memchr(p, '\n', (size_t)(to - p));
    const char *end = nl ? nl : to;
    fprintf(stderr, "pkc: |   %.*s\n", (int)(end - p), p);
    p = end + 1;
  }
}

/* The last failure record of the log: its cause, the command, and the last
 * lines of the command's output (between its "$ " line and the record). */
static void show_failure(const char *text) {
  const char *rec = NULL;
  for (const char *p = strstr(text, "\n" FAILED); p; p = strstr(p + 1, "\n" FAILED))
    rec = p + 1;
  if (!rec)
    return;
  const char *cmd = NULL;
  for (const char *p = text; p && p < rec; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (p[0] == '$' && p[1] == ' ')
      cmd = p;
  const char *rec_end = strchr(rec, '\n');
  fprintf(stderr, "pkc: %.*s\n", (int)((rec_end ? rec_end : rec + strlen(rec)) - rec) - 5, rec + 5);
  if (!cmd)
    return;
  const char *cmd_end = strchr(cmd, '\n');
  fprintf(stderr, "pkc: the command was: %.*s\n", (int)(cmd_end - cmd) - 2, cmd + 2);
  if (cmd_end + 1 < rec) {
    fprintf(stderr, "pkc: its last lines of output:\n");
    print_lines(cmd_end + 1, rec - 1, 12);
  }
}

/* Prints the log's error lines (or its tail) to stderr; a CMake error's
 * message is on the indented lines after "CMake Error at ...", so those go
 * too (e.g. "No CMAKE_CXX_COMPILER could be found."); then the failed
 * command with its cause and last lines of output. */
void pkb_show_errors(const char *log) {
  size_t len = 0;
  char *text = pkb_read_file(log, &len);
  if (!text)
    return;
  char *copy = strdup(text);
  int shown = 0;
  bool in_cmake_error = false;
  for (char *line = strtok(copy, "\n"); line && shown < 60; line = strtok(NULL, "\n")) {
    bool indented = line[0] == ' ' && line[1] == ' ';
    in_cmake_error = (in_cmake_error && indented) || strstr(line, "CMake Error");
    if (!strncmp(line, FAILED, strlen(FAILED)))
      continue; /* show_failure prints it with its command */
    if (in_cmake_error || strstr(line, "error") || strstr(line, "Error") ||
        strstr(line, "ERROR") || !strncmp(line, "pkc:", 4)) {
      fprintf(stderr, "%s\n", line);
      shown++;
    }
  }
  free(copy);
  if (strstr(text, "\n" FAILED))
    show_failure(text);
  else if (!shown) /* no recognizable error line: the tail */
    fprintf(stderr, "%s\n", text + (len > 3000 ? len - 3000 : 0));
  free(text);
  fprintf(stderr, "pkc: full log: %s\n", log);
}
