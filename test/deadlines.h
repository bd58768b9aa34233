/* How long a test may wait, for C and C++ tests alike. The suite must pass
 * on a loaded 2-core machine (two CPU hogs beside it) under ASan or TSan,
 * where a recorder that starts in 5 ms idle takes 150 ms, or a second.
 *
 * - Something that will happen (a ready line, a reply, an exit, samples in
 *   a file) is waited for on its fd, pidfd or inotify watch, bounded by
 *   PM_TEST_DEADLINE_MS: the bound only turns a hang into a failure.
 *   Never a sleep, never a sub-second deadline.
 * - A time perfmonger is given to do something (--ready-timeout,
 *   --kill-timeout, perfmonger_options.timeout_ms) is at least
 *   PM_TEST_MARGIN_S seconds.
 * - A test that needs perfmonger to miss its deadline makes it slow by
 *   construction (a full FIFO as its output, SIGSTOP), and may then give
 *   it a short one.
 * - A window in which nothing may happen (QuietUntil) may be short: load
 *   only makes it longer.
 * - A count that depends on timing (the samples of -t T at -i I) is
 *   bounded (at most T/I + 1), never exact: exact counts come from
 *   `sample` commands at -i 3600, or from a hand-stepped clock
 *   (test/daemon).
 */
#ifndef PM_TEST_DEADLINES_H
#define PM_TEST_DEADLINES_H

#define PM_TEST_DEADLINE_MS 10000
#define PM_TEST_MARGIN_S 3

#endif
