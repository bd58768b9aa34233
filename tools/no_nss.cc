// Linked only into the static perfmonger (see tools/meson.build).
//
// libuv's uv_os_get_passwd and uv_os_homedir reference getpwuid_r; in a
// static glibc binary that drags in NSS, which needs the shared libraries
// of the exact glibc version at run time, and the linker warns so. This
// program never calls those libuv functions, so their one reference is
// redirected here (-Wl,--wrap=getpwuid_r) and reports "not supported".
#include <errno.h>
#include <pwd.h>

extern "C" int __wrap_getpwuid_r(uid_t, struct passwd*, char*, size_t,
                                 struct passwd** result) {
  *result = nullptr;
  return ENOSYS;
}
