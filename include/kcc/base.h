// SPDX-License-Identifier: MIT
// kcc2d base: export macro, assert hook, allocator hook, small vector helpers shared by both modules.
#pragma once

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cglm/struct.h>

// KCC_API marks the public functions, the only symbols a shared kcc2d exports (everything else is compiled with
// hidden visibility). CMake defines KCC_BUILD_DLL while it builds a shared kcc2d and gives its users KCC_DLL.
// A static kcc2d exports nothing on its own, so a game's shared library that links it does not re-export it.
// Define KCC_API yourself to compile kcc2d into another library with its own export scheme.
#ifndef KCC_API
#if defined( _WIN32 ) && defined( KCC_BUILD_DLL )
#define KCC_API __declspec( dllexport )
#elif defined( _WIN32 ) && defined( KCC_DLL )
#define KCC_API __declspec( dllimport )
#elif defined( __GNUC__ ) && defined( KCC_BUILD_DLL )
#define KCC_API __attribute__( ( visibility( "default" ) ) )
#else
#define KCC_API
#endif
#endif

#define KCC_INLINE static inline

#ifdef __cplusplus
extern "C" {
#endif

/// Called when a KCC_ASSERT fails. message names the problem ("kcc_make_capsule: radius is negative").
/// Return 0 to continue (the function then takes its safe release path), non-zero to abort().
typedef int kcc_assert_fcn( const char* message, const char* file, int line );

/// Replace the assert handler (NULL restores the default, which prints to stderr and aborts).
KCC_API void kcc_set_assert_fcn( kcc_assert_fcn* fcn );

/// Internal to kcc2d's sources (not exported): reports a failed assertion through the installed handler.
void kcc_assert_failed( const char* message, const char* file, int line );

// Asserts are on when KCC_ENABLE_ASSERT is defined (CMake defines it in Debug builds and with the option
// KCC_ENABLE_ASSERT). They are for programmer errors; every public function also has a safe release path.
#if defined( KCC_ENABLE_ASSERT )
#define KCC_ASSERT( condition, message )                                                                           \
	do                                                                                                             \
	{                                                                                                              \
		if ( !( condition ) )                                                                                      \
		{                                                                                                          \
			kcc_assert_failed( message, __FILE__, __LINE__ );                                                      \
		}                                                                                                          \
	}                                                                                                              \
	while ( 0 )
#else
#define KCC_ASSERT( condition, message ) ( (void)0 )
#endif

/// Allocation hooks: used only by kcc_controller_create / destroy, kcc_space_static_changed, kcc_thread_pool_create /
/// destroy and a kcc_move_and_slide_batch larger than any before on its space (never inside a move, a query or a
/// task). On Linux the static index's blocks of 4 MiB or more get madvise( MADV_HUGEPAGE ) (advice only). The hooks
/// need malloc's alignment only: kcc2d starts each block on a 64-byte boundary itself (it asks for 63 bytes and a
/// pointer more).
typedef void* kcc_alloc_fcn( size_t size, void* user );
typedef void kcc_free_fcn( void* memory, void* user );

/// Install allocation hooks (NULL, NULL restores malloc / free).
KCC_API void kcc_set_allocator( kcc_alloc_fcn* alloc_fcn, kcc_free_fcn* free_fcn, void* user );

/// Internal to kcc2d's sources (not exported): a cache line's size, and allocate / free through the installed hooks.
/// Every block kcc_alloc returns starts on a cache line (it asks the hooks for a line and a pointer more): a structure
/// laid out in lines takes no more of them than it must, and data that different threads write stays apart.
#define KCC_CACHE_LINE 64
void* kcc_alloc( size_t size );
void kcc_free( void* memory );
/// Internal: grows *array (of elements of size bytes) to hold at least needed, keeping its contents (doubling, from 64);
/// false when memory ran out (the array is then unchanged).
bool kcc_reserve( void** array, int* capacity, int needed, size_t size );

/// True when x is finite (not NaN, not +-Inf). Never build kcc2d with -ffast-math: it breaks this.
KCC_INLINE bool kcc_is_valid_float( float x )
{
	return isfinite( x ) != 0;
}

KCC_INLINE bool kcc_is_valid_vec2( vec2s v )
{
	return kcc_is_valid_float( v.x ) && kcc_is_valid_float( v.y );
}

KCC_INLINE vec2s kcc_v2( float x, float y )
{
	vec2s v = { { x, y } };
	return v;
}

#ifdef __cplusplus
}
#endif
