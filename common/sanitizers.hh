// Which sanitizer this translation unit is built with, the same under GCC
// (which defines __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__) and Clang
// (which answers __has_feature instead).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PM_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PM_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define PM_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PM_THREAD_SANITIZER 1
#endif
#endif
