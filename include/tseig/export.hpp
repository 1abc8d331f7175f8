#pragma once
// TSEIG_API marks what libtseig exports: the library is built with hidden visibility,
// so only declarations carrying this macro (and explicit instantiations of exported
// class templates) are visible to programs that link it.
#if defined(__GNUC__) || defined(__clang__)
#define TSEIG_API __attribute__((visibility("default")))
#else
#define TSEIG_API
#endif
