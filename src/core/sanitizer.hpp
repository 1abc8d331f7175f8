#pragma once
// TSEIG_ASAN: defined when this translation unit is built with AddressSanitizer (g++ and
// clang spell the test differently). Its allocator maps, poisons and quarantines every
// block over 128 KiB, so a few memory paths take another route under it.
#if defined(__SANITIZE_ADDRESS__)
#define TSEIG_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TSEIG_ASAN 1
#endif
#endif
