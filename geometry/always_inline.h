// SPDX-License-Identifier: MIT
// KCC_ALWAYS_INLINE, for the geometry's and the controller's internal headers (not installed).
#pragma once

/// A static function inlined into its callers whatever the compiler's estimate: for the few on a hot path whose call
/// is a large part of their cost (run once or twice per move, per sweep or per cast).
#if defined( __GNUC__ ) || defined( __clang__ )
#define KCC_ALWAYS_INLINE __attribute__( ( always_inline ) ) static inline
#else
#define KCC_ALWAYS_INLINE static inline
#endif
